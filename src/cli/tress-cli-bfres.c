/* tress-cli-bfres.c: BFRES-only commands
 *
 *   generate-demo -o OUT        the demo file (bones waving, a visibility and a
 *                               texture-pattern animation)
 *   bfres-archive FILE          the files of the SARC archive holding the BFRES
 *   bfres-set-type FILE CURVE [--curve-type T] [--frame-type F] [--key-type K] -o OUT
 *                               change a curve's interpolation within its family
 *                               or widen its frame/key type
 *   bfres-set-frame-count FILE ANIM|CURVE COUNT -o OUT
 *                               raise an animation's frame count (never lowers it),
 *                               so that keys may be set past its old end
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#include "formats/bfres/tress-bfres-builder.h"
#include "formats/bfres/tress-bfres.h"
#include "tress-cli.h"

static int
cmd_generate_demo (int argc, char **argv)
{
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Where to write the demo", "OUT" },
    { NULL },
  };

  if (!tress_cli_parse (&argc, &argv, entries, "-o OUT", "Write the generated BFRES demo"))
    return TRESS_CLI_UNREADABLE;
  if (out == NULL || argc != 1)
    {
      tress_cli_error ("usage: generate-demo bfres -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  bytes = tress_bfres_build_demo (&error);
  if (bytes == NULL)
    {
      tress_cli_error ("%s", error->message);
      return TRESS_CLI_INVALID;
    }
  return tress_cli_write_atomic (out, bytes) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

static int
cmd_archive (int argc, char **argv)
{
  g_auto (TressCliFile) file = { 0 };
  g_auto (GStrv) names = NULL;

  if (!tress_cli_parse (&argc, &argv, NULL, "FILE", "List the files of the SARC archive"))
    return TRESS_CLI_UNREADABLE;
  if (argc != 2)
    {
      tress_cli_error ("usage: bfres-archive FILE");
      return TRESS_CLI_UNREADABLE;
    }
  if (!tress_cli_file_load (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  if (file.format != &tress_format_bfres)
    {
      tress_cli_error ("%s: not a BFRES file", argv[1]);
      return TRESS_CLI_UNREADABLE;
    }
  names = tress_bfres_list_archive (file.model);
  if (names == NULL)
    {
      tress_cli_error ("%s: the BFRES is not inside a SARC archive", argv[1]);
      return TRESS_CLI_INVALID;
    }
  for (guint i = 0; names[i]; i++)
    printf ("%s\n", names[i]);
  return TRESS_CLI_OK;
}

static gboolean
parse_type (const char *s, const char *const *names, int n, int *out)
{
  for (int i = 0; i < n; i++)
    if (names[i] != NULL && g_ascii_strcasecmp (s, names[i]) == 0)
      {
        *out = i;
        return TRUE;
      }
  return FALSE;
}

static int
cmd_set_type (int argc, char **argv)
{
  static const char *const curve_types[]
      = { "Cubic", "Linear", "BakedFloat", NULL, "StepInt", "BakedInt", "StepBool", "BakedBool" };
  static const char *const frame_types[] = { "f32", "s10.5", "u8" };
  static const char *const key_types[] = { "32", "s16", "s8" };
  g_autofree char *out = NULL, *ct_s = NULL, *ft_s = NULL, *kt_s = NULL;
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;
  TressBfresCurveInfo info;
  int index, ct, ft, kt;
  double err = 0;
  char *end = NULL;
  const GOptionEntry entries[] = {
    { "curve-type", 0, 0, G_OPTION_ARG_STRING, &ct_s, "Cubic, Linear, BakedFloat, StepInt, …",
      "T" },
    { "frame-type", 0, 0, G_OPTION_ARG_STRING, &ft_s, "f32, s10.5 or u8 (at least this wide)",
      "F" },
    { "key-type", 0, 0, G_OPTION_ARG_STRING, &kt_s, "32, s16 or s8 (at least this wide)", "K" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Where to write the result", "OUT" },
    { NULL },
  };

  if (!tress_cli_parse (&argc, &argv, entries, "FILE CURVE -o OUT",
                        "Change a BFRES curve's type within its family or widen it"))
    return TRESS_CLI_UNREADABLE;
  if (argc != 3 || out == NULL)
    {
      tress_cli_error ("usage: bfres-set-type FILE CURVE [--curve-type T] [--frame-type F] "
                       "[--key-type K] -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  if (!tress_cli_file_load (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  if (file.format != &tress_format_bfres)
    {
      tress_cli_error ("%s: not a BFRES file", argv[1]);
      return TRESS_CLI_UNREADABLE;
    }
  index = (int)strtol (argv[2], &end, 10);
  if (end == argv[2] || *end != '\0')
    index = tress_bfres_find_curve (file.model, argv[2]);
  if (!tress_bfres_get_curve_info (file.model, (guint)index, &info) || index < 0)
    {
      tress_cli_error ("%s: no curve %s", argv[1], argv[2]);
      return TRESS_CLI_UNREADABLE;
    }
  ct = info.curve_type, ft = info.frame_type, kt = info.key_type;
  if ((ct_s && !parse_type (ct_s, curve_types, 8, &ct))
      || (ft_s && !parse_type (ft_s, frame_types, 3, &ft))
      || (kt_s && !parse_type (kt_s, key_types, 3, &kt)))
    {
      tress_cli_error ("unknown type name");
      return TRESS_CLI_UNREADABLE;
    }
  if (!tress_bfres_set_curve_types (file.model, (guint)index, ct, ft, kt, &err, &error))
    {
      tress_cli_error ("%s", error->message);
      return TRESS_CLI_INVALID;
    }
  tress_bfres_get_curve_info (file.model, (guint)index, &info);
  printf ("%s: %s, %s frames, %s keys; largest quantization error %g\n", info.path,
          tress_bfres_curve_type_to_string (info.curve_type),
          tress_bfres_frame_type_to_string (info.frame_type),
          tress_bfres_key_type_to_string (info.key_type), err);
  return tress_cli_file_save (&file, out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

/* The first curve of the animation named @anim, or -1. */
static int
first_curve_of_anim (TressBfres *b, const char *anim)
{
  guint n = tress_bfres_get_n_curves (b);

  for (guint i = 0; i < n; i++)
    {
      TressBfresCurveInfo info;
      if (tress_bfres_get_curve_info (b, i, &info) && g_strcmp0 (info.anim_name, anim) == 0)
        return (int)i;
    }
  return -1;
}

static int
cmd_set_frame_count (int argc, char **argv)
{
  g_autofree char *out = NULL;
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (TressCurve) curve = NULL;
  const TressCurveOps *ops;
  TressBfresCurveInfo info;
  int index;
  double count, old;
  char *end = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Where to write the result", "OUT" },
    { NULL },
  };

  if (!tress_cli_parse (&argc, &argv, entries, "FILE ANIM|CURVE COUNT -o OUT",
                        "Raise the frame count of a BFRES animation"))
    return TRESS_CLI_UNREADABLE;
  if (argc != 4 || out == NULL)
    {
      tress_cli_error ("usage: bfres-set-frame-count FILE ANIM|CURVE COUNT -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  count = g_ascii_strtod (argv[3], &end);
  if (end == argv[3] || *end != '\0' || !(count >= 0) || count != floor (count))
    {
      tress_cli_error ("%s: the frame count must be a whole number of frames", argv[3]);
      return TRESS_CLI_UNREADABLE;
    }
  if (!tress_cli_file_load (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  if (file.format != &tress_format_bfres)
    {
      tress_cli_error ("%s: not a BFRES file", argv[1]);
      return TRESS_CLI_UNREADABLE;
    }
  /* An animation name first, then a curve index or path. */
  index = first_curve_of_anim (file.model, argv[2]);
  if (index < 0)
    {
      index = (int)strtol (argv[2], &end, 10);
      if (end == argv[2] || *end != '\0')
        index = tress_bfres_find_curve (file.model, argv[2]);
    }
  if (index < 0 || !tress_bfres_get_curve_info (file.model, (guint)index, &info))
    {
      tress_cli_error ("%s: no animation or curve %s", argv[1], argv[2]);
      return TRESS_CLI_UNREADABLE;
    }
  ops = file.format->curves;
  curve = ops->get_curve (file.model, (guint)index);
  old = curve->frame_count;
  if (count <= old)
    {
      tress_cli_error ("%s: \"%s\" already has %g frames; the frame count is only raised", argv[1],
                       info.anim_name, old);
      return TRESS_CLI_INVALID;
    }
  if (!ops->set_frame_count (file.model, (guint)index, count, &error))
    {
      tress_cli_error ("%s", error->message);
      return TRESS_CLI_INVALID;
    }
  printf ("%s: %g frames (was %g)\n", info.anim_name, count, old);
  return tress_cli_file_save (&file, out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

const TressCliCommand tress_cli_bfres_commands[] = {
  { "generate-demo", "-o OUT", "Write the BFRES demo (waving bones, visibility, texture pattern)",
    cmd_generate_demo },
  { "bfres-archive", "FILE", "List the files of the SARC archive a BFRES came from", cmd_archive },
  { "bfres-set-type", "FILE CURVE [--curve-type T] [--frame-type F] [--key-type K] -o OUT",
    "Change a BFRES curve's interpolation within its family, or widen its frame/key type",
    cmd_set_type },
  { "bfres-set-frame-count", "FILE ANIM|CURVE COUNT -o OUT",
    "Raise a BFRES animation's frame count, so that keys may go past its old end",
    cmd_set_frame_count },
  { NULL },
};
