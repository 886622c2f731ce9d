/* tress-cli.c: the formats without GTK
 *
 * tress-cli COMMAND [OPTIONS] FILE…  — the same commands for every format; the
 * curve commands work for every format with curves, and each format may add its
 * own (see tress-cli-<format>.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tress-cli.h"

#include "core/tress-file.h"

void
tress_cli_error (const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr ("tress-cli: %s\n", msg);
}

gboolean
tress_cli_file_load (TressCliFile *file, const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  GStatBuf st;

  memset (file, 0, sizeof *file);
  file->path = g_strdup (path);
  /* Bounded as in the editor: a regular file, at most TRESS_FILE_MAX_SIZE. */
  if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      tress_cli_error ("%s: not a regular file", path);
      return FALSE;
    }
  if (g_stat (path, &st) == 0 && st.st_size > TRESS_FILE_MAX_SIZE)
    {
      tress_cli_error ("%s holds %" G_GINT64_FORMAT " bytes, more than the %" G_GINT64_FORMAT
                       " bytes Tress reads",
                       path, (gint64)st.st_size, (gint64)TRESS_FILE_MAX_SIZE);
      return FALSE;
    }
  if (!g_file_get_contents (path, &contents, &len, &error))
    {
      tress_cli_error ("%s", error->message);
      return FALSE;
    }
  file->bytes = g_bytes_new_take (contents, len);
  file->format = tress_format_detect ((const guint8 *)contents, len, &error);
  if (file->format == NULL)
    {
      tress_cli_error ("%s: %s", path, error->message);
      return FALSE;
    }
  file->model = file->format->parse (file->bytes, path, &error);
  if (file->model == NULL)
    {
      tress_cli_error ("%s: %s", path, error->message);
      return FALSE;
    }
  return TRUE;
}

void
tress_cli_file_clear (TressCliFile *file)
{
  if (file->model != NULL)
    file->format->free (file->model);
  g_clear_pointer (&file->bytes, g_bytes_unref);
  g_clear_pointer (&file->path, g_free);
  file->model = NULL;
}

gboolean
tress_cli_write_atomic (const char *path, GBytes *bytes)
{
  return tress_cli_write (path, bytes, NULL);
}

gboolean
tress_cli_write (const char *path, GBytes *bytes, const char *input_path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) out = g_file_new_for_commandline_arg (path);
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);
  gboolean over_input = FALSE;

  /* Writing over the file that was read keeps a `~` backup, as the editor does. */
  if (input_path != NULL)
    {
      g_autoptr (GFile) in = g_file_new_for_commandline_arg (input_path);
      g_autoptr (GFileInfo) a
          = g_file_query_info (in, G_FILE_ATTRIBUTE_ID_FILE, G_FILE_QUERY_INFO_NONE, NULL, NULL);
      g_autoptr (GFileInfo) b
          = g_file_query_info (out, G_FILE_ATTRIBUTE_ID_FILE, G_FILE_QUERY_INFO_NONE, NULL, NULL);

      over_input = a != NULL && b != NULL
                   && g_strcmp0 (g_file_info_get_attribute_string (a, G_FILE_ATTRIBUTE_ID_FILE),
                                 g_file_info_get_attribute_string (b, G_FILE_ATTRIBUTE_ID_FILE))
                          == 0;
    }
  /* A new file renamed into place (the old one's permissions kept, links
   * followed, non-regular files refused): a failure leaves nothing half-written. */
  if (!tress_file_replace (out, data, len, NULL, over_input, NULL, NULL, &error))
    {
      tress_cli_error ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
tress_cli_file_save (TressCliFile *file, const char *out_path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  gpointer check;

  bytes = file->format->serialize (file->model, &error);
  if (bytes == NULL)
    {
      tress_cli_error ("%s: cannot write: %s", file->path, error->message);
      return FALSE;
    }
  /* Never write what we cannot read back. */
  check = file->format->parse (bytes, out_path, &error);
  if (check == NULL)
    {
      tress_cli_error ("%s: the new bytes do not parse again, nothing written: %s", out_path,
                       error->message);
      return FALSE;
    }
  /* As the editor saves: an error the edit adds is refused (errors the input
   * had are kept), and what else it adds is said (a BFRES that grew, say: the
   * edited model knows, the bytes read back do not). */
  if (file->format->validate != NULL)
    {
      g_autoptr (GPtrArray) after = file->format->validate (file->model);
      g_autoptr (GPtrArray) old = NULL;
      g_autoptr (GPtrArray) added = g_ptr_array_new ();
      g_autoptr (GHashTable) before = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      gpointer input = file->format->parse (file->bytes, file->path, NULL);
      guint n_new_errors;

      tress_problem_list_aggregate (after);
      if (input != NULL)
        {
          old = file->format->validate (input);
          tress_problem_list_aggregate (old);
          for (guint i = 0; i < old->len; i++)
            {
              const TressProblem *p = g_ptr_array_index (old, i);
              g_hash_table_add (
                  before, g_strconcat (p->location ? p->location : "", "\n", p->message, NULL));
            }
          file->format->free (input);
        }
      n_new_errors = tress_problem_list_new_errors (old, after, added, G_MAXUINT);
      for (guint i = 0; i < added->len; i++)
        {
          g_autofree char *line = tress_problem_to_string (g_ptr_array_index (added, i));

          tress_cli_error ("%s: the edit would add an error: %s", out_path, line);
        }
      /* What else is new (warnings, notes), said once. */
      for (guint i = 0; i < after->len; i++)
        {
          const TressProblem *p = g_ptr_array_index (after, i);
          g_autofree char *key
              = g_strconcat (p->location ? p->location : "", "\n", p->message, NULL);
          g_autofree char *line = NULL;

          if (p->severity >= TRESS_SEVERITY_ERROR || p->n_more > 0
              || g_hash_table_contains (before, key))
            continue;
          line = tress_problem_to_string (p);
          g_print ("%s: %s\n", out_path, line);
        }
      if (n_new_errors > 0)
        {
          file->format->free (check);
          tress_cli_error ("%s: nothing written", out_path);
          return FALSE;
        }
    }
  file->format->free (check);
  return tress_cli_write (out_path, bytes, file->path);
}

gboolean
tress_cli_parse (int *argc, char ***argv, const GOptionEntry *entries, const char *parameter_string,
                 const char *summary)
{
  g_autoptr (GOptionContext) context = g_option_context_new (parameter_string);
  g_autoptr (GError) error = NULL;

  g_option_context_set_summary (context, summary);
  if (entries != NULL)
    g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      tress_cli_error ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

void
tress_cli_print_json (JsonNode *node)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, NULL);
  fputs (text, stdout);
  fputc ('\n', stdout);
}

static gboolean
one_file (int argc, char **argv, const char *command)
{
  if (argc != 2)
    {
      tress_cli_error ("%s needs exactly one FILE (see tress-cli %s --help)", command, command);
      return FALSE;
    }
  return TRUE;
}

static int
cmd_info (int argc, char **argv)
{
  g_auto (TressCliFile) file = { 0 };
  g_autofree char *text = NULL;

  if (!tress_cli_parse (&argc, &argv, NULL, "FILE", "Print a summary of FILE.")
      || !one_file (argc, argv, "info"))
    return TRESS_CLI_UNREADABLE;
  if (!tress_cli_file_load (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  g_print ("File: %s\nFormat: %s\nSize: %" G_GSIZE_FORMAT " bytes\n", argv[1],
           file.format->display_name, g_bytes_get_size (file.bytes));
  if (file.format->describe != NULL)
    {
      text = file.format->describe (file.model);
      g_print ("%s%s", text, g_str_has_suffix (text, "\n") ? "" : "\n");
    }
  return TRESS_CLI_OK;
}

static int
print_problems (GPtrArray *problems, const char *path)
{
  guint n_errors = tress_problem_list_count (problems, TRESS_SEVERITY_ERROR);
  guint n_warnings = tress_problem_list_count (problems, TRESS_SEVERITY_WARNING) - n_errors;

  /* A bounded number per kind, then "and 8,412 more of this kind". */
  tress_problem_list_aggregate (problems);
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *line = tress_problem_to_string (g_ptr_array_index (problems, i));
      g_print ("%s: %s\n", path, line);
    }
  g_print ("%s: %u error%s, %u warning%s\n", path, n_errors, n_errors == 1 ? "" : "s", n_warnings,
           n_warnings == 1 ? "" : "s");
  return n_errors > 0 ? TRESS_CLI_INVALID : TRESS_CLI_OK;
}

static int
cmd_validate (int argc, char **argv)
{
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GPtrArray) problems = NULL;

  if (!tress_cli_parse (&argc, &argv, NULL, "FILE",
                        "Check FILE against the rules of its format. Exit status: 0 valid or "
                        "warnings only, 1 errors, 2 unreadable.")
      || !one_file (argc, argv, "validate"))
    return TRESS_CLI_UNREADABLE;
  if (!tress_cli_file_load (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  problems = file.format->validate != NULL ? file.format->validate (file.model)
                                           : tress_problem_list_new ();
  return print_problems (problems, argv[1]);
}

static char *opt_output;

static const GOptionEntry output_entries[] = {
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output, "Write the result to OUT", "OUT" },
  { NULL },
};

static int
cmd_resave (int argc, char **argv)
{
  g_auto (TressCliFile) file = { 0 };

  if (!tress_cli_parse (&argc, &argv, output_entries, "FILE -o OUT",
                        "Parse FILE and write it again through the model.")
      || !one_file (argc, argv, "resave"))
    return TRESS_CLI_UNREADABLE;
  if (opt_output == NULL)
    {
      tress_cli_error ("resave needs -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  if (!tress_cli_file_load (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  return tress_cli_file_save (&file, opt_output) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

static int
cmd_fix (int argc, char **argv)
{
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  guint fixed;

  if (!tress_cli_parse (&argc, &argv, output_entries, "FILE -o OUT",
                        "Apply every automatic fix to FILE and write the result.")
      || !one_file (argc, argv, "fix"))
    return TRESS_CLI_UNREADABLE;
  if (opt_output == NULL)
    {
      tress_cli_error ("fix needs -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  if (!tress_cli_file_load (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  if (file.format->fix_all == NULL)
    {
      tress_cli_error ("%s: the %s format has no automatic fixes", argv[1], file.format->id);
      return TRESS_CLI_INVALID;
    }
  fixed = file.format->fix_all (file.model, NULL, &error);
  if (error != NULL)
    {
      tress_cli_error ("%s: %s", argv[1], error->message);
      return TRESS_CLI_INVALID;
    }
  g_print ("%s: fixed %u problem%s\n", argv[1], fixed, fixed == 1 ? "" : "s");
  problems = file.format->validate (file.model);
  if (problems->len > 0)
    print_problems (problems, opt_output);
  if (!tress_cli_file_save (&file, opt_output))
    return TRESS_CLI_UNWRITTEN;
  /* Written, but what no fix could repair is still an error. */
  return tress_problem_list_count (problems, TRESS_SEVERITY_ERROR) > 0 ? TRESS_CLI_INVALID
                                                                       : TRESS_CLI_OK;
}

static const TressCliCommand generic_commands[] = {
  { "info", "FILE", "Print a summary of FILE", cmd_info },
  { "validate", "FILE", "Check FILE (exit 0 valid, 1 errors, 2 unreadable)", cmd_validate },
  { "resave", "FILE -o OUT", "Parse and write FILE again through the model", cmd_resave },
  { "fix", "FILE -o OUT", "Apply every automatic fix", cmd_fix },
  { NULL },
};

static const TressCliCommand *const command_tables[] = {
  generic_commands,        tress_cli_json_commands, tress_cli_curve_commands,
  tress_cli_anim_commands, tress_cli_cha_commands,  tress_cli_bfres_commands,
  tress_cli_niff_commands, tress_cli_gltf_commands, tress_cli_gltf_import_commands,
  tress_cli_pose_commands,
};

static const struct
{
  const char *format;
  const TressCliCommand *table;
} demo_tables[] = {
  { "cha", tress_cli_cha_commands },
  { "bfres", tress_cli_bfres_commands },
  { "niff", tress_cli_niff_commands },
};

static const TressCliCommand *
find_command (const TressCliCommand *table, const char *name)
{
  for (guint i = 0; table[i].name != NULL; i++)
    if (g_str_equal (table[i].name, name))
      return &table[i];
  return NULL;
}

/* "generate-demo --help": the formats and what each one takes. */
static void
print_demo_help (FILE *out)
{
  fprintf (out, "Usage:\n  generate-demo FORMAT [OPTIONS] -o OUT\n\n"
                "Write a demo file made by Tress's own generator.\n\nFormats:\n");
  for (guint i = 0; i < G_N_ELEMENTS (demo_tables); i++)
    {
      const TressCliCommand *cmd = find_command (demo_tables[i].table, "generate-demo");
      g_autofree char *usage = NULL;

      if (cmd == NULL)
        continue;
      usage = g_strdup_printf ("%s %s", demo_tables[i].format, cmd->usage);
      fprintf (out, "  %s\n      %s\n", usage, cmd->summary);
    }
  fprintf (out, "\nRun 'tress-cli generate-demo FORMAT --help' for a format's options.\n");
}

static int
cmd_generate_demo (int argc, char **argv)
{
  if (argc >= 2 && (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h")))
    {
      print_demo_help (stdout);
      return TRESS_CLI_OK;
    }
  if (argc < 2 || argv[1][0] == '-')
    {
      tress_cli_error ("generate-demo needs a format: cha, bfres or niff (see tress-cli "
                       "generate-demo --help)");
      return TRESS_CLI_UNREADABLE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (demo_tables); i++)
    if (g_str_equal (demo_tables[i].format, argv[1]))
      {
        const TressCliCommand *cmd = find_command (demo_tables[i].table, "generate-demo");

        if (cmd == NULL)
          break;
        /* argv[0] becomes "generate-demo", the format word is dropped. */
        argv[1] = argv[0];
        return cmd->run (argc - 1, argv + 1);
      }
  tress_cli_error ("no demo generator for the format '%s'", argv[1]);
  return TRESS_CLI_UNREADABLE;
}

/* One command of the list: its usage in a column of characters (not bytes:
 * "FRAME…" is one character wider than its letters), the summary after it, or
 * on the next line when the usage is longer than the column. */
static void
print_command (FILE *out, const char *usage, const char *summary)
{
  const glong column = 44;
  glong width = g_utf8_strlen (usage, -1);

  if (width <= column)
    fprintf (out, "  %s%*s %s\n", usage, (int)(column - width), "", summary);
  else
    fprintf (out, "  %s\n  %*s %s\n", usage, (int)column, "", summary);
}

static void
print_usage (FILE *out)
{
  fprintf (out,
           "Usage: tress-cli COMMAND [OPTIONS] FILE…\n\n"
           "Tress %s: creature fur (.cha), BFRES (.bfres, .sbfres, .szs) and NIFF (.niff, "
           ".nif) without the editor.\n\nCommands:\n",
           TRESS_VERSION);
  for (guint t = 0; t < G_N_ELEMENTS (command_tables); t++)
    for (guint i = 0; command_tables[t][i].name != NULL; i++)
      {
        const TressCliCommand *c = &command_tables[t][i];
        g_autofree char *head = NULL;

        if (g_str_equal (c->name, "generate-demo"))
          continue;
        head = g_strdup_printf ("%s %s", c->name, c->usage);
        print_command (out, head, c->summary);
      }
  print_command (out, "generate-demo FORMAT [OPTIONS] -o OUT",
                 "Write a demo file made by the project's generator (cha, bfres, niff)");
  fprintf (out,
           "\nExit status: 0 done, 1 the file has errors or the edit was refused, 2 unreadable "
           "input or bad usage, 3 OUT could not be written (nothing was).\n");
  fprintf (out, "\nRun 'tress-cli COMMAND --help' for a command's options.\n");
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  /* Numbers in JSON and in the output must not depend on the locale. */
  setlocale (LC_NUMERIC, "C");
  /* A file size limit ends a write with a message and exit status 3, not a kill. */
  tress_file_ignore_size_limit_signal ();

  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h")
      || g_str_equal (argv[1], "help"))
    {
      print_usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? TRESS_CLI_UNREADABLE : TRESS_CLI_OK;
    }
  if (g_str_equal (argv[1], "--version"))
    {
      g_print ("tress-cli %s\n", TRESS_VERSION);
      return TRESS_CLI_OK;
    }
  if (g_str_equal (argv[1], "generate-demo"))
    return cmd_generate_demo (argc - 1, argv + 1);
  for (guint t = 0; t < G_N_ELEMENTS (command_tables); t++)
    {
      const TressCliCommand *cmd = find_command (command_tables[t], argv[1]);
      if (cmd != NULL)
        return cmd->run (argc - 1, argv + 1);
    }
  tress_cli_error ("unknown command '%s'", argv[1]);
  print_usage (stderr);
  return TRESS_CLI_UNREADABLE;
}
