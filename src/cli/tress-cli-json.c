/* tress-cli-json.c: the model as JSON text and back
 *
 *   tress-cli dump FILE [-o OUT]   the whole model as JSON (schema: docs/json.md)
 *   tress-cli build JSON -o OUT    the file a dump describes, with its edits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "formats/tress-curve-commit.h"
#include "tress-cli.h"

#include "formats/tress-diff.h"

/* JSON text is some four times the size of the file it describes. */
#define JSON_MAX_SIZE (G_GUINT64_CONSTANT (4) << 30)

static char *opt_out;

static int
cmd_dump (int argc, char **argv)
{
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out, "Write the JSON to OUT, not stdout",
      "OUT" },
    { NULL },
  };
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;

  if (!tress_cli_parse (&argc, &argv, entries, "FILE",
                        "Print the whole model of FILE as JSON (see docs/json.md); "
                        "tress-cli build turns it back into the same file."))
    return TRESS_CLI_UNREADABLE;
  if (argc != 2)
    {
      tress_cli_error ("dump needs exactly one FILE (see tress-cli dump --help)");
      return TRESS_CLI_UNREADABLE;
    }
  if (!tress_cli_file_load (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  if (file.format->dump == NULL)
    {
      tress_cli_error ("%s: the %s format has no dump", argv[1], file.format->id);
      return TRESS_CLI_UNREADABLE;
    }
  if (opt_out != NULL)
    {
      g_autoptr (TressJsonWriter) w = tress_json_writer_new ();
      g_autoptr (GBytes) text = NULL;

      file.format->dump (file.model, w);
      text = tress_json_writer_free_to_bytes (g_steal_pointer (&w));
      return tress_cli_write (opt_out, text, argv[1]) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
    }
  else
    {
      g_autoptr (TressJsonWriter) w = tress_json_writer_new_for_file (stdout);

      file.format->dump (file.model, w);
      if (!tress_json_writer_finish (w, &error))
        {
          tress_cli_error ("%s", error->message);
          return TRESS_CLI_UNWRITTEN;
        }
    }
  return TRESS_CLI_OK;
}

/* The errors (on stderr) or the rest, each after the JSON pointer it is at;
 * @problems aggregated already, so that a summed-up kind is one line "and
 * 8,412 more of this kind" after its first ones. */
static void
print_problems (const char *path, GPtrArray *problems, gboolean errors)
{
  for (guint i = 0; i < problems->len; i++)
    {
      const TressProblem *p = g_ptr_array_index (problems, i);
      g_autofree char *line = NULL;

      if ((p->severity >= TRESS_SEVERITY_ERROR) != errors)
        continue;
      if (p->n_more > 0)
        line = g_strdup (p->message);
      else
        line = g_strdup_printf (
            "%s: %s", p->location != NULL && p->location[0] ? p->location : "(the whole text)",
            p->message);
      if (errors)
        tress_cli_error ("%s: %s", path, line);
      else
        g_print ("%s: %s\n", path, line);
    }
}

static int
cmd_build (int argc, char **argv)
{
  gboolean requantize = FALSE, widen = FALSE;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out, "Write the file to OUT", "OUT" },
    { "requantize", 0, 0, G_OPTION_ARG_NONE, &requantize,
      "Accept a coarser step for a quantized curve whose edited values do not fit its stored "
      "one (its other keys move)",
      NULL },
    { "widen", 0, 0, G_OPTION_ARG_NONE, &widen,
      "Store such a curve in the narrowest wider value type that keeps its other keys", NULL },
    { NULL },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (GMappedFile) mapped = NULL;
  g_autoptr (TressJsonReader) r = NULL;
  g_autofree char *format_id = NULL;
  const TressFormat *format;
  TressJsonBuild result = { NULL, NULL, 0 };
  TressCliFile file = { 0 };
  gint64 version = 0;
  GStatBuf st;
  gboolean saved;

  if (!tress_cli_parse (&argc, &argv, entries, "JSON -o OUT",
                        "Rebuild the file a dump describes (tress-cli dump FILE > JSON). An "
                        "unedited dump gives the same bytes; values edited in the JSON go "
                        "through the same edit operations as the editor's, and a refused one "
                        "is named by its JSON Pointer (nothing is written then)."))
    return TRESS_CLI_UNREADABLE;
  if (argc != 2 || opt_out == NULL)
    {
      tress_cli_error ("build needs JSON and -o OUT (see tress-cli build --help)");
      return TRESS_CLI_UNREADABLE;
    }
  if (g_stat (argv[1], &st) == 0 && (guint64)st.st_size > JSON_MAX_SIZE)
    {
      tress_cli_error ("%s holds %" G_GINT64_FORMAT " bytes, more than the %" G_GUINT64_FORMAT
                       " bytes of JSON Tress reads",
                       argv[1], (gint64)st.st_size, JSON_MAX_SIZE);
      return TRESS_CLI_UNREADABLE;
    }
  mapped = g_mapped_file_new (argv[1], FALSE, &error);
  if (mapped == NULL)
    {
      tress_cli_error ("%s", error->message);
      return TRESS_CLI_UNREADABLE;
    }
  r = tress_json_reader_new (g_mapped_file_get_contents (mapped),
                             g_mapped_file_get_length (mapped));
  tress_json_reader_set_consent (r, (requantize ? TRESS_COMMIT_REQUANTIZE : 0)
                                        | (widen ? TRESS_COMMIT_WIDEN_VALUES : 0));
  if (!tress_json_reader_read_header (r, &format_id, &version))
    {
      tress_problem_list_aggregate (tress_json_reader_get_problems (r));
      print_problems (argv[1], tress_json_reader_get_problems (r), TRUE);
      return TRESS_CLI_UNREADABLE;
    }
  format = tress_format_lookup (format_id);
  if (format == NULL || format->build == NULL)
    {
      g_autofree char *q = tress_json_quote (format_id, -1);

      tress_cli_error ("%s: /format: %s is no format Tress builds (cha, bfres or niff)", argv[1],
                       q);
      return TRESS_CLI_UNREADABLE;
    }
  if (!format->build (r, &result))
    {
      GPtrArray *problems = tress_json_reader_get_problems (r);

      /* A bounded number per kind, then "and 8,412 more of this kind". */
      tress_problem_list_aggregate (problems);
      print_problems (argv[1], problems, FALSE);
      print_problems (argv[1], problems, TRUE);
      tress_cli_error ("%s: nothing written (%u refused)", argv[1], tress_json_reader_n_errors (r));
      return tress_json_reader_ok (r) ? TRESS_CLI_INVALID : TRESS_CLI_UNREADABLE;
    }
  tress_problem_list_aggregate (tress_json_reader_get_problems (r));
  print_problems (argv[1], tress_json_reader_get_problems (r), FALSE);
  /* The text is read: what it costs is given back before the file is saved. */
  g_clear_pointer (&r, tress_json_reader_free);
  g_clear_pointer (&mapped, g_mapped_file_unref);

  /* Saved as every edit is: serialized, read back, checked against what the
   * file had before the JSON's edits. */
  file.format = format;
  file.model = result.model;
  file.path = g_strdup (argv[1]);
  file.bytes = result.original;
  if (file.bytes == NULL)
    {
      file.bytes = format->serialize (result.model, &error);
      if (file.bytes == NULL)
        {
          tress_cli_error ("%s: cannot write: %s", argv[1], error->message);
          tress_cli_file_clear (&file);
          return TRESS_CLI_UNWRITTEN;
        }
    }
  saved = tress_cli_file_save (&file, opt_out);
  tress_cli_file_clear (&file);
  return saved ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

static gboolean opt_json;

static void
print_item (const TressDiffItem *item, gpointer user_data)
{
  g_autofree char *line = tress_diff_item_to_text (item);

  fputs (line, stdout);
  fputc ('\n', stdout);
}

static void
write_item (const TressDiffItem *item, gpointer user_data)
{
  tress_diff_item_write_json (item, user_data);
}

/* The report as JSON, each difference written as it is found: what differs
 * between two large files can be many times their size. */
static gboolean
diff_json (const TressCliFile *a, const TressCliFile *b, const char *path_a, const char *path_b,
           guint *n_items)
{
  g_autoptr (TressJsonWriter) w = tress_json_writer_new_for_file (stdout);
  g_autoptr (TressDiff) diff = tress_diff_new ();
  g_autoptr (GError) error = NULL;

  tress_diff_set_keep (diff, 0);
  tress_diff_set_func (diff, write_item, w);
  tress_json_begin_object (w);
  tress_json_string_member (w, "format", a->format->id);
  tress_json_string_member (w, "a", path_a);
  tress_json_string_member (w, "b", path_b);
  tress_json_bool_member (w, "same_bytes", g_bytes_equal (a->bytes, b->bytes));
  tress_json_member (w, "differences");
  tress_json_begin_array (w);
  tress_diff_models (a->format, a->model, b->model, diff);
  tress_json_end_array (w);
  tress_json_bool_member (w, "same", tress_diff_get_n_items (diff) == 0);
  tress_json_member (w, "counts");
  tress_json_begin_object_compact (w);
  for (guint k = 0; k < tress_diff_get_n_kinds (diff); k++)
    {
      guint n;
      const char *kind = tress_diff_get_kind (diff, k, &n);
      tress_json_int_member (w, kind, n);
    }
  tress_json_end_object (w);
  tress_json_end_object (w);
  *n_items = tress_diff_get_n_items (diff);
  if (!tress_json_writer_finish (w, &error))
    {
      tress_cli_error ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

static int
cmd_diff (int argc, char **argv)
{
  gboolean all = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, "Print the differences as JSON (every one)",
      NULL },
    { "all", 0, 0, G_OPTION_ARG_NONE, &all,
      "List every difference (else 20 of each kind after the summary)", NULL },
    { NULL },
  };
  g_auto (TressCliFile) a = { 0 };
  g_auto (TressCliFile) b = { 0 };
  g_autoptr (TressDiff) diff = tress_diff_new ();
  guint n_items;

  if (!tress_cli_parse (&argc, &argv, entries, "A B",
                        "What differs between two files of one format, at the model's level: "
                        "curves (keys added, removed, moved, changed; the largest difference and "
                        "its frame), records, lines and ribbons, bytes outside the model. "
                        "Exit 0 same, 1 different, 2 unreadable. `diff FILE~ FILE` shows what "
                        "the last save over FILE changed."))
    return TRESS_CLI_UNREADABLE;
  if (argc != 3)
    {
      tress_cli_error ("diff needs two files, A and B (see tress-cli diff --help)");
      return TRESS_CLI_UNREADABLE;
    }
  if (!tress_cli_file_load (&a, argv[1]) || !tress_cli_file_load (&b, argv[2]))
    return TRESS_CLI_UNREADABLE;
  if (a.format != b.format)
    {
      tress_cli_error ("%s is %s, %s is %s: diff compares files of one format", argv[1],
                       a.format->id, argv[2], b.format->id);
      return TRESS_CLI_UNREADABLE;
    }
  if (opt_json)
    {
      if (!diff_json (&a, &b, argv[1], argv[2], &n_items))
        return TRESS_CLI_UNWRITTEN;
      return n_items > 0 ? TRESS_CLI_INVALID : TRESS_CLI_OK;
    }

  /* The summary comes first: the counts of a first pass, which keeps the
   * first 20 of each kind; with --all a second pass prints every one as it
   * is found, so that nothing but the counts is held. */
  tress_diff_set_details (diff, FALSE);
  tress_diff_set_keep (diff, all ? 0 : 20);
  tress_diff_models (a.format, a.model, b.model, diff);
  n_items = tress_diff_get_n_items (diff);
  if (!all)
    {
      g_autofree char *text = tress_diff_to_text (diff);
      fputs (text, stdout);
    }
  else if (n_items > 0)
    {
      g_autoptr (TressDiff) again = tress_diff_new ();
      g_autofree char *summary = tress_diff_summary (diff);

      printf ("%s\n", summary);
      tress_diff_set_details (again, FALSE);
      tress_diff_set_keep (again, 0);
      tress_diff_set_func (again, print_item, NULL);
      tress_diff_models (a.format, a.model, b.model, again);
    }
  if (n_items == 0 && !g_bytes_equal (a.bytes, b.bytes))
    g_printerr ("tress-cli: %s and %s hold the same model; their bytes differ only where no "
                "value is (compression)\n",
                argv[1], argv[2]);
  if (fflush (stdout) != 0)
    {
      tress_cli_error ("cannot write the differences: %s", g_strerror (errno));
      return TRESS_CLI_UNWRITTEN;
    }
  return n_items > 0 ? TRESS_CLI_INVALID : TRESS_CLI_OK;
}

const TressCliCommand tress_cli_json_commands[] = {
  { "dump", "FILE [-o OUT]", "Print the whole model as JSON", cmd_dump },
  { "build", "JSON [--requantize | --widen] -o OUT",
    "Rebuild a file from dump's JSON, with its edits", cmd_build },
  { "diff", "A B [--all] [--json]", "What differs between two files (exit 0 same, 1 different)",
    cmd_diff },
  { NULL },
};
