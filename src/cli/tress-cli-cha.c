/* tress-cli-cha.c: creature-fur commands of tress-cli
 *
 *   tress-cli retarget FILE --from A --to B [--material N] [--ribbons LIST] -o OUT
 *   tress-cli set-weights FILE --line PATH W0 W1 W2 -o OUT
 *   tress-cli generate-demo cha [--ribbons N] [--moralities 0|2] [--variant V] -o OUT
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "formats/cha/tress-cha-demo.h"
#include "formats/cha/tress-cha-edit.h"
#include "formats/cha/tress-cha.h"
#include "tress-cli.h"

static gboolean
parse_uint (const char *text, guint64 max, guint64 *out)
{
  char *end = NULL;
  guint64 v;

  if (text == NULL || !g_ascii_isdigit (text[0]))
    return FALSE;
  v = g_ascii_strtoull (text, &end, 10);
  if (end == NULL || *end != '\0' || v > max)
    return FALSE;
  *out = v;
  return TRUE;
}

static gboolean
load_cha (TressCliFile *file, const char *path)
{
  if (!tress_cli_file_load (file, path))
    return FALSE;
  if (file->format != &tress_format_cha)
    {
      tress_cli_error ("%s: not a creature-fur (.cha) file but %s", path,
                       file->format->display_name);
      return FALSE;
    }
  return TRUE;
}

static int
cmp_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *)a, y = *(const guint *)b;
  return x < y ? -1 : x > y;
}

/* "0,4,7-12" → sorted unique ribbon indices */
static GArray *
parse_list (const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);
  g_autoptr (GArray) list = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_auto (GStrv) range = g_strsplit (g_strstrip (parts[i]), "-", 2);
      guint64 lo, hi;

      if (!parse_uint (range[0], G_MAXUINT32, &lo))
        return NULL;
      hi = lo;
      if (range[1] != NULL && !parse_uint (range[1], G_MAXUINT32, &hi))
        return NULL;
      if (hi < lo || hi - lo > 10000000)
        return NULL;
      for (guint64 v = lo; v <= hi; v++)
        {
          guint x = (guint)v;
          g_array_append_val (list, x);
        }
    }
  /* sorted, each ribbon once */
  g_array_sort (list, cmp_uint);
  for (guint i = 0, n = 0; i <= list->len; i++)
    if (i == list->len)
      g_array_set_size (list, n);
    else if (n == 0 || g_array_index (list, guint, i) != g_array_index (list, guint, n - 1))
      g_array_index (list, guint, n++) = g_array_index (list, guint, i);
  return g_steal_pointer (&list);
}

static char *opt_out;
static char *opt_from;
static char *opt_to;
static char *opt_material;
static char *opt_ribbons;
static char *opt_line;
static char *opt_moralities;
static char **opt_variants;

static int
cmd_retarget (int argc, char **argv)
{
  const GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &opt_from, "Body part to replace", "A" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &opt_to, "Body part to use instead", "B" },
    { "material", 0, 0, G_OPTION_ARG_STRING, &opt_material, "Only this material", "N" },
    { "ribbons", 0, 0, G_OPTION_ARG_STRING, &opt_ribbons,
      "Only these ribbons of the material (e.g. 0,4,7-12)", "LIST" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out, "Write the result to OUT", "OUT" },
    { NULL },
  };
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) ribbons = NULL;
  TressChaScope scope = { -1, NULL, 0 };
  guint64 from, to, material;
  guint n_lines = 0, n_ribbons = 0;

  if (!tress_cli_parse (&argc, &argv, entries, "FILE --from A --to B -o OUT",
                        "Replace body part A by B in the references and attachments of the "
                        "ribbons (all, one material's, or a list), adding B to a material's "
                        "applied list when it is missing."))
    return TRESS_CLI_UNREADABLE;
  if (argc != 2 || opt_out == NULL || !parse_uint (opt_from, G_MAXUINT32, &from)
      || !parse_uint (opt_to, G_MAXUINT32, &to))
    {
      tress_cli_error ("retarget needs FILE, --from A, --to B (body-part numbers) and -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  if (opt_material != NULL)
    {
      if (!parse_uint (opt_material, G_MAXINT, &material))
        {
          tress_cli_error ("--material needs a material number, not “%s”", opt_material);
          return TRESS_CLI_UNREADABLE;
        }
      scope.material = (int)material;
    }
  if (opt_ribbons != NULL)
    {
      ribbons = parse_list (opt_ribbons);
      if (ribbons == NULL)
        {
          tress_cli_error ("--ribbons needs a list like 0,4,7-12, not “%s”", opt_ribbons);
          return TRESS_CLI_UNREADABLE;
        }
      if (scope.material < 0)
        scope.material = 0;
      scope.ribbons = (const guint *)ribbons->data;
      scope.n_ribbons = ribbons->len;
    }
  if (!load_cha (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  if (!tress_cha_retarget_count (file.model, &scope, (guint32)from, (guint32)to, &n_lines,
                                 &n_ribbons, &error)
      || !tress_cha_retarget (file.model, NULL, &scope, (guint32)from, (guint32)to, &error))
    {
      tress_cli_error ("%s: %s", argv[1], error->message);
      return TRESS_CLI_INVALID;
    }
  g_print ("%s: retargeted %u line%s and %u ribbon%s from body part %u to %u\n", argv[1], n_lines,
           n_lines == 1 ? "" : "s", n_ribbons, n_ribbons == 1 ? "" : "s", (guint)from, (guint)to);
  return tress_cli_file_save (&file, opt_out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

/* "radeon/material 0/ribbon 12/line 3", "material 0/line 40" or "0/12/3" */
static gboolean
parse_line_path (const TressChaFile *file, const char *path, TressChaLineId *out)
{
  g_auto (GStrv) parts = g_strsplit (path, "/", -1);
  gint64 material = -1, ribbon = -1, line = -1;
  guint bare = 0;
  gint64 bare_values[3] = { -1, -1, -1 };
  const TressChaMaterial *m;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *p = g_strstrip (parts[i]);
      const char *num = p;
      guint64 v;
      gint64 *slot = NULL;

      if (g_str_equal (p, "radeon") || p[0] == '\0')
        continue;
      if (g_str_has_prefix (p, "material "))
        slot = &material, num = p + 9;
      else if (g_str_has_prefix (p, "ribbon "))
        slot = &ribbon, num = p + 7;
      else if (g_str_has_prefix (p, "line "))
        slot = &line, num = p + 5;
      else if (bare < 3)
        slot = &bare_values[bare++];
      if (slot == NULL || !parse_uint (num, G_MAXUINT32, &v))
        return FALSE;
      *slot = (gint64)v;
    }
  if (bare == 3)
    material = bare_values[0], ribbon = bare_values[1], line = bare_values[2];
  else if (bare != 0)
    return FALSE;
  if (material < 0)
    material = 0;
  if (line < 0 || file->radeon == NULL || material >= file->radeon->n_materials)
    return FALSE;
  m = &file->radeon->materials[material];
  out->material = (guint)material;
  if (ribbon >= 0)
    {
      guint first, n;
      if (!tress_cha_material_ribbon_lines (m, (guint)ribbon, &first, &n) || line >= n)
        return FALSE;
      out->line = first + (guint)line;
    }
  else
    out->line = (guint)line;
  return out->line < m->n_lines;
}

static int
cmd_set_weights (int argc, char **argv)
{
  const GOptionEntry entries[] = {
    { "line", 0, 0, G_OPTION_ARG_STRING, &opt_line,
      "The line, e.g. \"radeon/material 0/ribbon 12/line 3\" or 0/12/3", "PATH" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out, "Write the result to OUT", "OUT" },
    { NULL },
  };
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;
  TressChaLineId id;
  guint8 w[3];

  if (!tress_cli_parse (&argc, &argv, entries, "FILE --line PATH W0 W1 W2 -o OUT",
                        "Set the three weights of a line (of references 0, 1 and 2; they must "
                        "sum to 255)."))
    return TRESS_CLI_UNREADABLE;
  if (argc != 5 || opt_out == NULL || opt_line == NULL)
    {
      tress_cli_error ("set-weights needs FILE, --line PATH, three weights and -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  for (guint k = 0; k < 3; k++)
    {
      guint64 v;
      if (!parse_uint (argv[2 + k], 255, &v))
        {
          tress_cli_error ("a weight is a number from 0 to 255, not “%s”", argv[2 + k]);
          return TRESS_CLI_UNREADABLE;
        }
      w[k] = (guint8)v;
    }
  if (!load_cha (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  if (!parse_line_path (file.model, opt_line, &id))
    {
      tress_cli_error ("%s: no line “%s” (write radeon/material M/ribbon R/line L or M/R/L)",
                       argv[1], opt_line);
      return TRESS_CLI_INVALID;
    }
  if (!tress_cha_set_weights (file.model, NULL, &id, 1, w, &error))
    {
      tress_cli_error ("%s: %s", argv[1], error->message);
      return TRESS_CLI_INVALID;
    }
  return tress_cli_file_save (&file, opt_out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

static int
cmd_generate_demo (int argc, char **argv)
{
  const GOptionEntry entries[] = {
    { "ribbons", 0, 0, G_OPTION_ARG_STRING, &opt_ribbons, "Number of ribbons (default 2400)", "N" },
    { "moralities", 0, 0, G_OPTION_ARG_STRING, &opt_moralities,
      "0 (no morality, like the gorilla) or 2 (evil, good)", "0|2" },
    { "variant", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_variants,
      "creature, gorilla, stress, small, whole-size, seed-magic, upper-magic, trailing, single "
      "(may be repeated)",
      "V" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out, "Write the file to OUT", "OUT" },
    { NULL },
  };
  g_autoptr (GBytes) bytes = NULL;
  TressChaDemoOptions options;

  if (!tress_cli_parse (&argc, &argv, entries, "-o OUT",
                        "Write a demo creature-fur file made by Tress's own generator."))
    return TRESS_CLI_UNREADABLE;
  if (argc != 1 || opt_out == NULL)
    {
      tress_cli_error ("generate-demo cha needs -o OUT and no other argument");
      return TRESS_CLI_UNREADABLE;
    }
  tress_cha_demo_options_init (&options);
  for (guint i = 0; opt_variants != NULL && opt_variants[i] != NULL; i++)
    {
      g_auto (GStrv) names = g_strsplit (opt_variants[i], ",", -1);
      for (guint k = 0; names[k] != NULL; k++)
        if (!tress_cha_demo_options_apply_variant (&options, g_strstrip (names[k])))
          {
            tress_cli_error ("unknown variant “%s” (known: %s)", names[k],
                             tress_cha_demo_variant_names ());
            return TRESS_CLI_UNREADABLE;
          }
    }
  if (opt_ribbons != NULL)
    {
      guint64 n;
      /* About 540 bytes a ribbon: 900,000 keep the file (~490 MB) within the
       * 512 MiB the editor and tress-cli read. */
      if (!parse_uint (opt_ribbons, 900000, &n) || n == 0)
        {
          tress_cli_error ("--ribbons needs a number from 1 to 900000, not “%s”", opt_ribbons);
          return TRESS_CLI_UNREADABLE;
        }
      options.n_ribbons = (guint)n;
    }
  if (opt_moralities != NULL)
    {
      if (g_str_equal (opt_moralities, "0"))
        options.n_moralities = 0;
      else if (g_str_equal (opt_moralities, "2"))
        options.n_moralities = 2;
      else
        {
          tress_cli_error ("--moralities is 0 or 2, not “%s”", opt_moralities);
          return TRESS_CLI_UNREADABLE;
        }
    }
  bytes = tress_cha_demo_generate_bytes (&options);
  return tress_cli_write_atomic (opt_out, bytes) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

const TressCliCommand tress_cli_cha_commands[] = {
  { "retarget", "FILE --from A --to B [--material N] [--ribbons LIST] -o OUT",
    "Replace body part A by B in a .cha file", cmd_retarget },
  { "set-weights", "FILE --line PATH W0 W1 W2 -o OUT", "Set the three weights of a .cha line",
    cmd_set_weights },
  { "generate-demo", "[--ribbons N] [--moralities 0|2] [--variant V] -o OUT",
    "Write a demo creature-fur file", cmd_generate_demo },
  { NULL },
};
