/* tress-cli-anim.c: commands on whole animations (BFRES animations, NIFF AnimGroups)
 *
 *   retime FILE ANIMATION (--scale F | --frames N) [--widen] -o OUT
 *   set-anim FILE ANIMATION [--frames N [--trim]] [--loop on|off] [--rename NEW] -o OUT
 *   duplicate-anim FILE ANIMATION NEW -o OUT
 *   delete-anim FILE ANIMATION -o OUT
 *
 * ANIMATION: a BFRES animation's name, or "Kind/name" where animations of
 * different kinds share it; a NIFF AnimGroup's name, or "#N". The operations
 * themselves are the format layer's (tress-bfres-animops.h,
 * tress-niff-animops.h): this file parses, picks and reports.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats/bfres/tress-bfres-animops.h"
#include "formats/niff/tress-niff-animops.h"
#include "tress-cli.h"

/* Animations listed when a name matches none. */
#define SHOWN_ANIMS 40

static gboolean
is_bfres (const TressCliFile *file)
{
  return file->format == &tress_format_bfres;
}

static gboolean
is_niff (const TressCliFile *file)
{
  return file->format == &tress_format_niff;
}

static gboolean
load (TressCliFile *file, const char *path, const char *command)
{
  if (!tress_cli_file_load (file, path))
    return FALSE;
  if (is_bfres (file) || is_niff (file))
    return TRUE;
  tress_cli_error ("%s: %s works on BFRES animations and NIFF AnimGroups, not on %s files", path,
                   command, file->format->id);
  return FALSE;
}

static guint
n_anims (TressCliFile *file)
{
  return is_bfres (file) ? tress_bfres_get_n_anims (file->model)
                         : tress_niff_file_get_n_groups (file->model);
}

static char *
anim_spec (TressCliFile *file, guint anim)
{
  return is_bfres (file) ? tress_bfres_dup_anim_spec (file->model, anim)
                         : tress_niff_dup_group_spec (file->model, anim);
}

/* ANIMATION of a command: the animation it names, or FALSE, said why with
 * the candidates (every animation when it names none). */
static gboolean
find_anim (TressCliFile *file, const char *spec, guint *out)
{
  g_autoptr (GPtrArray) candidates = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) list = g_string_new (NULL);
  int found = is_bfres (file) ? tress_bfres_find_anim (file->model, spec, candidates)
                              : tress_niff_find_group (file->model, spec, candidates);
  guint n = n_anims (file);

  if (found >= 0)
    {
      *out = (guint)found;
      return TRUE;
    }
  if (candidates->len > 0)
    {
      for (guint i = 0; i < candidates->len; i++)
        {
          g_autofree char *q = g_shell_quote (g_ptr_array_index (candidates, i));

          g_string_append_printf (list, "%s%s", i ? ", " : "", q);
        }
      tress_cli_error ("%s: \"%s\" names %u animations; name one of them: %s", file->path, spec,
                       candidates->len, list->str);
      return FALSE;
    }
  for (guint i = 0; i < n && i < SHOWN_ANIMS; i++)
    {
      g_autofree char *name = anim_spec (file, i);
      g_autofree char *q = g_shell_quote (name);

      g_string_append_printf (list, "%s%s", i ? ", " : "", q);
    }
  if (n > SHOWN_ANIMS)
    g_string_append_printf (list, " and %u more (tress-cli info FILE lists them)", n - SHOWN_ANIMS);
  tress_cli_error ("%s: no animation \"%s\"; the animations: %s", file->path, spec,
                   n > 0 ? list->str : "none");
  return FALSE;
}

gboolean
tress_cli_find_anim (TressCliFile *file, const char *spec, guint *out)
{
  return find_anim (file, spec, out);
}

static void
print_notes (GPtrArray *notes)
{
  for (guint i = 0; i < notes->len; i++)
    g_print ("%s\n", (const char *)g_ptr_array_index (notes, i));
  g_ptr_array_set_size (notes, 0);
}

/* A number > 0 (TRUE), or FALSE having said why. */
static gboolean
parse_positive (const char *option, const char *text, double *out)
{
  char *end = NULL;
  double v = text != NULL ? g_ascii_strtod (text, &end) : NAN;

  if (text == NULL || end == text || *end != '\0' || !isfinite (v) || !(v > 0))
    {
      tress_cli_error ("%s: '%s' is not a number greater than 0", option, text ? text : "");
      return FALSE;
    }
  *out = v;
  return TRUE;
}

/* A whole number of frames ≥ 0 (TRUE), or FALSE having said why. */
static gboolean
parse_frames (const char *option, const char *text, guint32 *out)
{
  char *end = NULL;
  double v = text != NULL ? g_ascii_strtod (text, &end) : NAN;

  if (text == NULL || end == text || *end != '\0' || !(v >= 0) || v != floor (v) || v > G_MAXINT32)
    {
      tress_cli_error ("%s: '%s' is not a whole number of frames from 0 to %d", option,
                       text ? text : "", G_MAXINT32);
      return FALSE;
    }
  *out = (guint32)v;
  return TRUE;
}

/* The animation's length in frames (BFRES: its frame count; NIFF: its last key). */
static double
anim_length (TressCliFile *file, guint anim)
{
  TressBfresAnimInfo info;

  if (is_niff (file))
    return tress_niff_group_get_frame_count (file->model, anim);
  tress_bfres_get_anim_info (file->model, anim, &info);
  return info.frame_count;
}

/* ---- retime ---------------------------------------------------------------------------- */

static int
cmd_retime (int argc, char **argv)
{
  g_autofree char *out = NULL, *scale_s = NULL, *frames_s = NULL;
  gboolean widen = FALSE;
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  double scale = 0;
  guint32 frames = 0;
  guint anim;
  gboolean ok;
  const GOptionEntry entries[] = {
    { "scale", 0, 0, G_OPTION_ARG_STRING, &scale_s, "Play at frame F·f what played at f", "F" },
    { "frames", 0, 0, G_OPTION_ARG_STRING, &frames_s,
      "The scale that makes the animation N frames long", "N" },
    { "widen", 0, 0, G_OPTION_ARG_NONE, &widen,
      "Store frames the curve's frame type cannot hold in a wider one (BFRES)", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Where to write the result", "OUT" },
    { NULL },
  };

  if (!tress_cli_parse (&argc, &argv, entries, "FILE ANIMATION (--scale F | --frames N) -o OUT",
                        "Make an animation play slower (F > 1) or faster (F < 1): every curve "
                        "plays at frame F·f what it played at f"))
    return TRESS_CLI_UNREADABLE;
  if (argc != 3 || out == NULL || (scale_s == NULL) == (frames_s == NULL))
    {
      tress_cli_error ("usage: retime FILE ANIMATION (--scale F | --frames N) [--widen] -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  if ((scale_s != NULL && !parse_positive ("--scale", scale_s, &scale))
      || (frames_s != NULL && !parse_frames ("--frames", frames_s, &frames)))
    return TRESS_CLI_UNREADABLE;
  if (!load (&file, argv[1], "retime") || !find_anim (&file, argv[2], &anim))
    return TRESS_CLI_UNREADABLE;
  if (frames_s != NULL)
    {
      double length = anim_length (&file, anim);

      if (!(length > 0) || frames == 0)
        {
          tress_cli_error ("%s: \"%s\" is %g frames long; --frames scales a length above 0 to "
                           "one above 0 (use --scale)",
                           argv[1], argv[2], length);
          return TRESS_CLI_UNREADABLE;
        }
      scale = frames / length;
    }
  ok = is_bfres (&file) ? tress_bfres_retime (file.model, anim, scale, widen, notes, &error)
                        : tress_niff_retime (file.model, anim, scale, notes, &error);
  if (!ok)
    {
      tress_cli_error ("%s: %s (nothing written)", argv[1], error->message);
      return g_error_matches (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE) ? TRESS_CLI_UNREADABLE
                                                                         : TRESS_CLI_INVALID;
    }
  if (widen && is_niff (&file))
    g_print ("--widen: NIFF stores whole frames only; nothing was widened\n");
  print_notes (notes);
  return tress_cli_file_save (&file, out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

/* ---- set-anim ----------------------------------------------------------------------------- */

static int
cmd_set_anim (int argc, char **argv)
{
  g_autofree char *out = NULL, *frames_s = NULL, *loop_s = NULL, *rename = NULL;
  gboolean trim = FALSE, loop = FALSE;
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  guint32 frames = 0;
  guint anim;
  const GOptionEntry entries[] = {
    { "frames", 0, 0, G_OPTION_ARG_STRING, &frames_s,
      "The frame count (BFRES) or last frame (NIFF)", "N" },
    { "trim", 0, 0, G_OPTION_ARG_NONE, &trim, "Cut the keys past a lower --frames", NULL },
    { "loop", 0, 0, G_OPTION_ARG_STRING, &loop_s, "Loop (on) or play once (off)", "on|off" },
    { "rename", 0, 0, G_OPTION_ARG_STRING, &rename, "A new name", "NEW" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Where to write the result", "OUT" },
    { NULL },
  };

  if (!tress_cli_parse (&argc, &argv, entries,
                        "FILE ANIMATION [--frames N [--trim]] [--loop on|off] [--rename NEW] -o "
                        "OUT",
                        "Change an animation's frame count, loop flag or name"))
    return TRESS_CLI_UNREADABLE;
  if (argc != 3 || out == NULL || (frames_s == NULL && loop_s == NULL && rename == NULL)
      || (trim && frames_s == NULL))
    {
      tress_cli_error ("usage: set-anim FILE ANIMATION [--frames N [--trim]] [--loop on|off] "
                       "[--rename NEW] -o OUT (at least one change)");
      return TRESS_CLI_UNREADABLE;
    }
  if (frames_s != NULL && !parse_frames ("--frames", frames_s, &frames))
    return TRESS_CLI_UNREADABLE;
  if (loop_s != NULL && g_strcmp0 (loop_s, "on") != 0 && g_strcmp0 (loop_s, "off") != 0)
    {
      tress_cli_error ("--loop: '%s' is neither on nor off", loop_s);
      return TRESS_CLI_UNREADABLE;
    }
  loop = g_strcmp0 (loop_s, "on") == 0;
  if (!load (&file, argv[1], "set-anim") || !find_anim (&file, argv[2], &anim))
    return TRESS_CLI_UNREADABLE;

  if (frames_s != NULL
      && !(is_bfres (&file)
               ? tress_bfres_set_anim_frame_count (file.model, anim, (int)frames, trim, notes,
                                                   &error)
               : tress_niff_set_group_end (file.model, anim, frames, trim, notes, &error)))
    goto refused;
  if (loop_s != NULL)
    {
      if (is_bfres (&file))
        {
          TressBfresAnimInfo info;

          tress_bfres_get_anim_info (file.model, anim, &info);
          g_ptr_array_add (notes, g_strdup_printf ("%s: loop %s%s", info.name, loop ? "on" : "off",
                                                   info.loops == loop ? " (as it was)" : ""));
          if (!tress_bfres_set_anim_loop (file.model, anim, loop, &error))
            goto refused;
        }
      else if (!tress_niff_set_group_loop (file.model, anim, loop ? 0 : 1, notes, &error))
        goto refused;
    }
  if (rename != NULL
      && !(is_bfres (&file) ? tress_bfres_rename_anim (file.model, anim, rename, notes, &error)
                            : tress_niff_rename_group (file.model, anim, rename, notes, &error)))
    goto refused;
  print_notes (notes);
  return tress_cli_file_save (&file, out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;

refused:
  tress_cli_error ("%s: %s (nothing written)", argv[1], error->message);
  return TRESS_CLI_INVALID;
}

/* ---- duplicate and delete ------------------------------------------------------------------ */

static int
cmd_duplicate (int argc, char **argv)
{
  g_autofree char *out = NULL;
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  guint anim;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Where to write the result", "OUT" },
    { NULL },
  };

  if (!tress_cli_parse (&argc, &argv, entries, "FILE ANIMATION NEW -o OUT",
                        "Add a copy of an animation named NEW"))
    return TRESS_CLI_UNREADABLE;
  if (argc != 4 || out == NULL)
    {
      tress_cli_error ("usage: duplicate-anim FILE ANIMATION NEW -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  if (!load (&file, argv[1], "duplicate-anim") || !find_anim (&file, argv[2], &anim))
    return TRESS_CLI_UNREADABLE;
  if (!(is_bfres (&file) ? tress_bfres_duplicate_anim (file.model, anim, argv[3], notes, &error)
                         : tress_niff_duplicate_group (file.model, anim, argv[3], notes, &error)))
    {
      tress_cli_error ("%s: %s (nothing written)", argv[1], error->message);
      return TRESS_CLI_INVALID;
    }
  print_notes (notes);
  return tress_cli_file_save (&file, out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

static int
cmd_delete (int argc, char **argv)
{
  g_autofree char *out = NULL;
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  guint anim;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Where to write the result", "OUT" },
    { NULL },
  };

  if (!tress_cli_parse (&argc, &argv, entries, "FILE ANIMATION -o OUT", "Remove an animation"))
    return TRESS_CLI_UNREADABLE;
  if (argc != 3 || out == NULL)
    {
      tress_cli_error ("usage: delete-anim FILE ANIMATION -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  if (!load (&file, argv[1], "delete-anim") || !find_anim (&file, argv[2], &anim))
    return TRESS_CLI_UNREADABLE;
  if (!(is_bfres (&file) ? tress_bfres_delete_anim (file.model, anim, notes, &error)
                         : tress_niff_delete_group (file.model, anim, notes, &error)))
    {
      tress_cli_error ("%s: %s (nothing written)", argv[1], error->message);
      return TRESS_CLI_INVALID;
    }
  print_notes (notes);
  return tress_cli_file_save (&file, out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

const TressCliCommand tress_cli_anim_commands[] = {
  { "retime", "FILE ANIMATION (--scale F | --frames N) [--widen] -o OUT",
    "Play an animation slower or faster (BFRES, NIFF)", cmd_retime },
  { "set-anim", "FILE ANIMATION [--frames N [--trim]] [--loop on|off] [--rename NEW] -o OUT",
    "Change an animation's frame count, loop flag or name", cmd_set_anim },
  { "duplicate-anim", "FILE ANIMATION NEW -o OUT", "Add a copy of an animation named NEW",
    cmd_duplicate },
  { "delete-anim", "FILE ANIMATION -o OUT", "Remove an animation", cmd_delete },
  { NULL },
};
