/* tress-cli-bfres.c: BFRES-only commands
 *
 *   generate-demo -o OUT        the demo file (a figure waving, a visibility and a
 *                               texture-pattern animation)
 *   generate-demo --bones N [--vertices N] [--animations N] [--frames N] -o OUT
 *                               instead, a generated model of N bones and N
 *                               skeletal animations moving every bone (benchmarks)
 *   generate-demo --curves N [--keys MIN-MAX] -o OUT
 *                               instead, skeletal animations of N short curves
 *                               of MIN to MAX keys each (default 2-6; benchmarks)
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
#include <string.h>
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
  g_autofree char *keys = NULL;
  int bones = 0, vertices = 4000, animations = 1, frames = 60, curves = 0;
  guint64 min_keys = 2, max_keys = 6;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Where to write the demo", "OUT" },
    { "bones", 0, 0, G_OPTION_ARG_INT, &bones,
      "Instead of the demo: a generated model of N bones (2 to 255) and its animations", "N" },
    { "vertices", 0, 0, G_OPTION_ARG_INT, &vertices,
      "With --bones: about N skinned vertices (default 4000); 0: no model, the animations "
      "alone",
      "N" },
    { "animations", 0, 0, G_OPTION_ARG_INT, &animations,
      "With --bones: N skeletal animations moving every bone (default 1)", "N" },
    { "frames", 0, 0, G_OPTION_ARG_INT, &frames,
      "With --bones: N frames each, a multiple of 4 (default 60)", "N" },
    { "curves", 0, 0, G_OPTION_ARG_INT, &curves,
      "Instead of the demo: skeletal animations of N short curves (1 to 1000000)", "N" },
    { "keys", 0, 0, G_OPTION_ARG_STRING, &keys,
      "With --curves: each curve MIN to MAX keys (default 2-6, at most 31)", "MIN-MAX" },
    { NULL },
  };

  if (!tress_cli_parse (&argc, &argv, entries, "[--bones N … | --curves N …] -o OUT",
                        "Write the generated BFRES demo, or a generated model and animations "
                        "of the size given"))
    return TRESS_CLI_UNREADABLE;
  if (out == NULL || argc != 1)
    {
      tress_cli_error ("usage: generate-demo bfres [--bones N [--vertices N] [--animations N] "
                       "[--frames N] | --curves N [--keys MIN-MAX]] -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  if (keys != NULL)
    {
      g_auto (GStrv) range = g_strsplit (keys, "-", 2);

      if (g_strv_length (range) != 2
          || !g_ascii_string_to_unsigned (range[0], 10, 2, TRESS_BFRES_MANY_MAX_KEYS, &min_keys,
                                          NULL)
          || !g_ascii_string_to_unsigned (range[1], 10, min_keys, TRESS_BFRES_MANY_MAX_KEYS,
                                          &max_keys, NULL))
        {
          tress_cli_error ("generate-demo bfres: --keys MIN-MAX, 2 ≤ MIN ≤ MAX ≤ %d",
                           TRESS_BFRES_MANY_MAX_KEYS);
          return TRESS_CLI_UNREADABLE;
        }
    }
  if ((curves != 0 || keys != NULL) && (bones != 0 || curves < 1 || curves > 1000000))
    {
      tress_cli_error ("generate-demo bfres: --curves 1 to 1000000, without --bones");
      return TRESS_CLI_UNREADABLE;
    }
  if (bones != 0
      && (bones < 2 || bones > 255 || vertices < 0 || vertices > 1000000 || animations < 0
          || animations > 1000 || frames < 4 || frames > 65532 || frames % 4 != 0))
    {
      tress_cli_error ("generate-demo bfres: --bones 2 to 255, --vertices 0 to 1000000, "
                       "--animations 0 to 1000, --frames a multiple of 4 from 4 to 65532");
      return TRESS_CLI_UNREADABLE;
    }
  if (curves != 0)
    bytes = tress_bfres_build_many_curves_file ((guint)curves, (guint)min_keys, (guint)max_keys,
                                                &error);
  else if (bones != 0)
    bytes = tress_bfres_build_test_file ((guint)bones, (guint)vertices, (guint)animations, frames,
                                         &error);
  else
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
  guint index;
  int ct, ft, kt;
  double err = 0;
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
  if (!tress_cli_find_curve (&file, argv[2], &index))
    return TRESS_CLI_UNREADABLE;
  tress_bfres_get_curve_info (file.model, index, &info);
  ct = info.curve_type, ft = info.frame_type, kt = info.key_type;
  if (ct_s && !parse_type (ct_s, curve_types, 8, &ct))
    {
      tress_cli_error ("--curve-type: '%s' is none of Cubic, Linear, BakedFloat (float curves), "
                       "StepInt, BakedInt, StepBool, BakedBool",
                       ct_s);
      return TRESS_CLI_UNREADABLE;
    }
  if ((ft_s && !parse_type (ft_s, frame_types, 3, &ft)))
    {
      tress_cli_error ("--frame-type: '%s' is none of f32, s10.5, u8", ft_s);
      return TRESS_CLI_UNREADABLE;
    }
  if (kt_s && !parse_type (kt_s, key_types, 3, &kt))
    {
      tress_cli_error ("--key-type: '%s' is none of 32, s16, s8", kt_s);
      return TRESS_CLI_UNREADABLE;
    }
  if (!tress_bfres_set_curve_types (file.model, index, ct, ft, kt, &err, &error))
    {
      tress_cli_error ("%s", error->message);
      return TRESS_CLI_INVALID;
    }
  tress_bfres_get_curve_info (file.model, index, &info);
  printf ("%s: %s, %s frames, %s keys; largest quantization error %g\n", info.path,
          tress_bfres_curve_type_to_string (info.curve_type),
          tress_bfres_frame_type_to_string (info.frame_type),
          tress_bfres_key_type_to_string (info.key_type), err);
  return tress_cli_file_save (&file, out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

/* ANIM|CURVE of bfres-set-frame-count: an animation ("Wait", or "Skeletal/Wait"
 * where animations of different kinds share the name), else a curve of it.
 * *anim gets the animation; FALSE (said why, with a command that works) when
 * @spec names none or several. */
static gboolean
find_anim_or_curve (TressCliFile *file, const char *spec, const char *count, guint *anim)
{
  TressBfres *b = file->model;
  g_autoptr (GPtrArray) candidates = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *file_q = g_shell_quote (file->path);
  int a = tress_bfres_find_anim (b, spec, candidates);
  guint curve;

  if (a >= 0)
    {
      *anim = (guint)a;
      return TRUE;
    }
  if (candidates->len > 0)
    {
      g_autoptr (GString) list = g_string_new (NULL);
      g_autofree char *first = g_shell_quote (candidates->pdata[0]);

      for (guint i = 0; i < candidates->len; i++)
        g_string_append_printf (list, "%s%s", i ? ", " : "", (const char *)candidates->pdata[i]);
      tress_cli_error ("%s: \"%s\" names %u animations of different kinds: %s; name one with "
                       "its kind, e.g. tress-cli bfres-set-frame-count %s %s %s -o OUT",
                       file->path, spec, candidates->len, list->str, file_q, first, count);
      return FALSE;
    }
  /* A curve (an index, path or Kind/path) names its animation. */
  if (strchr (spec, '/') != NULL || g_ascii_isdigit (spec[0]))
    {
      TressBfresCurveInfo info;

      if (!tress_cli_find_curve (file, spec, &curve))
        return FALSE;
      tress_bfres_get_curve_info (b, curve, &info);
      *anim = info.anim;
      return TRUE;
    }
  {
    g_autoptr (GString) names = g_string_new (NULL);
    guint n = tress_bfres_get_n_anims (b);

    for (guint i = 0; i < n && i < 6; i++)
      {
        g_autofree char *name = tress_bfres_dup_anim_spec (b, i);
        g_autofree char *q = g_shell_quote (name);

        g_string_append_printf (names, "%s%s", i ? ", " : "", q);
      }
    if (n > 6)
      g_string_append_printf (names, " and %u more (tress-cli info %s)", n - 6, file_q);
    tress_cli_error ("%s: no animation or curve '%s'; the animations: %s", file->path, spec,
                     n > 0 ? names->str : "none");
  }
  return FALSE;
}

static int
cmd_set_frame_count (int argc, char **argv)
{
  g_autofree char *out = NULL;
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;
  TressBfresAnimInfo info;
  g_autofree char *name = NULL;
  guint anim;
  double count;
  char *end = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Where to write the result", "OUT" },
    { NULL },
  };

  if (!tress_cli_parse (&argc, &argv, entries, "FILE ANIM|CURVE COUNT -o OUT",
                        "Raise the frame count of a BFRES animation (ANIM: its name, or "
                        "Kind/name where animations of different kinds share it)"))
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
  if (!find_anim_or_curve (&file, argv[2], argv[3], &anim))
    return TRESS_CLI_UNREADABLE;
  tress_bfres_get_anim_info (file.model, anim, &info);
  name = tress_bfres_dup_anim_spec (file.model, anim);
  if (info.n_curves == 0)
    {
      tress_cli_error ("%s: \"%s\" has no curves, and so no keys a longer animation would hold",
                       argv[1], name);
      return TRESS_CLI_INVALID;
    }
  if (count <= info.frame_count)
    {
      g_autofree char *file_q = g_shell_quote (argv[1]), *name_q = g_shell_quote (name);

      tress_cli_error ("%s: \"%s\" already has %d frames; the frame count is only raised (e.g. "
                       "tress-cli bfres-set-frame-count %s %s %d -o OUT)",
                       argv[1], name, info.frame_count, file_q, name_q, info.frame_count + 1);
      return TRESS_CLI_INVALID;
    }
  if (!file.format->curves->set_frame_count (file.model, info.first_curve, count, &error))
    {
      tress_cli_error ("%s", error->message);
      return TRESS_CLI_INVALID;
    }
  printf ("%s: %g frames (was %d)\n", name, count, info.frame_count);
  return tress_cli_file_save (&file, out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

const TressCliCommand tress_cli_bfres_commands[] = {
  { "generate-demo",
    "[--bones N [--vertices N] [--animations N] [--frames N] | --curves N [--keys MIN-MAX]] -o OUT",
    "Write the BFRES demo (a waving figure, visibility, texture pattern) or a generated model",
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
