/* tress-cli-pose.c: a bone's local transform at a frame, as keys
 *
 *   set-pose FILE ANIMATION BONE FRAME [--rotate X Y Z] [--translate X Y Z]
 *            [--scale X Y Z] [--widen | --requantize] -o OUT
 *
 * The format layer does the work (tress-bfres-setpose.h,
 * tress-niff-setpose.h), the call a pose gizmo in the preview makes: this
 * file parses, picks and reports.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "core/tress-error.h"
#include "formats/bfres/tress-bfres-scene.h"
#include "formats/bfres/tress-bfres-setpose.h"
#include "formats/niff/tress-niff-setpose.h"
#include "tress-cli.h"

typedef struct
{
  const char *option;
  gboolean given;
  double v[3];
} Triple;

/* A finite number, or FALSE having said why. */
static gboolean
parse_number (const char *what, const char *text, double *out)
{
  char *end = NULL;
  double v = text != NULL ? g_ascii_strtod (text, &end) : NAN;

  if (text == NULL || end == text || *end != '\0' || !isfinite (v))
    {
      tress_cli_error ("%s: expected a finite number, found '%s'", what, text ? text : "");
      return FALSE;
    }
  *out = v;
  return TRUE;
}

/* Takes "--rotate X Y Z" and its kind out of argv (GOption takes one value
 * per option, and would read "-30" as an option). FALSE having said why. */
static gboolean
take_triples (int *argc, char **argv, Triple *triples, guint n)
{
  int w = 1;

  for (int r = 1; r < *argc; r++)
    {
      Triple *t = NULL;

      if (g_str_equal (argv[r], "--"))
        {
          while (r < *argc)
            argv[w++] = argv[r++];
          break;
        }
      for (guint i = 0; i < n; i++)
        if (g_str_equal (argv[r], triples[i].option))
          t = &triples[i];
      if (t == NULL)
        {
          argv[w++] = argv[r];
          continue;
        }
      if (t->given)
        {
          tress_cli_error ("%s is given twice", t->option);
          return FALSE;
        }
      if (r + 3 >= *argc)
        {
          tress_cli_error ("%s needs three numbers: X Y Z", t->option);
          return FALSE;
        }
      for (guint k = 0; k < 3; k++)
        {
          g_autofree char *what = g_strdup_printf ("%s %c", t->option, "XYZ"[k]);

          if (!parse_number (what, argv[r + 1 + k], &t->v[k]))
            return FALSE;
        }
      t->given = TRUE;
      r += 3;
    }
  argv[w] = NULL;
  *argc = w;
  return TRUE;
}

/* A negative number among the arguments (FRAME "-1") would be read as an
 * option: it is hidden from the option parser and put back after. */
static gboolean
is_negative_number (const char *arg)
{
  return arg[0] == '-' && (g_ascii_isdigit (arg[1]) || arg[1] == '.');
}

static const char negative_mark[] = "\x01negative";

static void
hide_negatives (int argc, char **argv, GPtrArray *hidden)
{
  for (int i = 1; i < argc; i++)
    if (is_negative_number (argv[i]))
      {
        g_ptr_array_add (hidden, argv[i]);
        argv[i] = (char *)negative_mark;
      }
}

static void
restore_negatives (int argc, char **argv, GPtrArray *hidden)
{
  guint k = 0;

  for (int i = 1; i < argc && k < hidden->len; i++)
    if (argv[i] == negative_mark || g_strcmp0 (argv[i], negative_mark) == 0)
      argv[i] = hidden->pdata[k++];
}

static const char *
action_label (TressBfresPoseAction action)
{
  switch (action)
    {
    case TRESS_BFRES_POSE_MOVED:
      return "key moved";
    case TRESS_BFRES_POSE_INSERTED:
      return "key inserted";
    case TRESS_BFRES_POSE_ADDED:
      return "curve added";
    case TRESS_BFRES_POSE_UNCHANGED:
    default:
      return "unchanged";
    }
}

static void
print_change (const char *bone, const char *label, gboolean angle, TressBfresPoseAction action,
              double requested, double stored, double step)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE], s[G_ASCII_DTOSTR_BUF_SIZE], st[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (a, sizeof a, "%.9g", requested);
  g_ascii_formatd (s, sizeof s, "%.9g", stored);
  g_ascii_formatd (st, sizeof st, "%.3g", step);
  if (angle)
    g_print ("%s %s: %s: %s (%.6g°), stored %s (%.6g°)%s%s\n", bone, label, action_label (action),
             a, requested * 180 / G_PI, s, stored * 180 / G_PI, step > 0 ? ", step " : "",
             step > 0 ? st : "");
  else
    g_print ("%s %s: %s: %s, stored %s%s%s\n", bone, label, action_label (action), a, s,
             step > 0 ? ", step " : "", step > 0 ? st : "");
}

/* The refusal and what would lift it. */
static int
refused (TressCliFile *file, GError *error)
{
  if (error->code == TRESS_ERROR_REFUSED)
    {
      tress_cli_error ("%s: %s; add --widen to store it in a wider type (or --requantize to "
                       "accept a coarser step); nothing written",
                       file->path, error->message);
      return TRESS_CLI_INVALID;
    }
  tress_cli_error ("%s: %s; nothing written", file->path, error->message);
  return error->code == TRESS_ERROR_BAD_VALUE ? TRESS_CLI_UNREADABLE : TRESS_CLI_INVALID;
}

/* The skeleton holding @bone in the FRES bytes of @model_path (--model), or
 * in the model found as the preview finds it (the file's own, else X.bfres
 * beside it); NULL when there is none. FALSE having said why when --model
 * cannot be read. */
static gboolean
load_skeleton (TressCliFile *file, const char *model_path, const char *bone,
               TressBfresModels **models, const TressBfresSkeleton **skeleton)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) fres = NULL;
  gsize size;
  const guint8 *d;

  *skeleton = NULL;
  if (model_path != NULL)
    {
      g_autoptr (GFile) gfile = g_file_new_for_commandline_arg (model_path);
      g_autoptr (GBytes) bytes = g_file_load_bytes (gfile, NULL, NULL, &error);

      fres = bytes != NULL ? tress_bfres_unwrap (bytes, NULL, &error) : NULL;
      if (fres == NULL)
        {
          tress_cli_error ("--model %s: %s", model_path, error->message);
          return FALSE;
        }
    }
  else
    {
      g_autoptr (GFile) gfile = g_file_new_for_commandline_arg (file->path);
      g_autofree char *source = NULL;

      /* A model that cannot be read is as good as none here. */
      fres = tress_bfres_find_model (file->model, gfile, &source, NULL);
      if (fres == NULL)
        return TRUE;
    }
  d = g_bytes_get_data (fres, &size);
  *models = tress_bfres_models_parse (d, size, model_path != NULL ? &error : NULL);
  if (*models == NULL)
    {
      if (model_path == NULL)
        return TRUE;
      tress_cli_error ("--model %s: %s", model_path, error->message);
      return FALSE;
    }
  for (guint m = 0; m < (*models)->n_models && *skeleton == NULL; m++)
    for (guint i = 0; i < (*models)->models[m].skeleton.n_bones; i++)
      if (g_strcmp0 ((*models)->models[m].skeleton.bones[i].name, bone) == 0)
        *skeleton = &(*models)->models[m].skeleton;
  return TRUE;
}

static int
set_pose_bfres (TressCliFile *file, guint anim, const char *bone, double frame, const Triple *t,
                TressCommitConsent consent, const char *model_path, const char *out)
{
  g_autoptr (TressBfresModels) models = NULL;
  const TressBfresSkeleton *skeleton = NULL;

  TressBfresBonePose pose
      = { .has_rotation = t[0].given, .has_translation = t[1].given, .has_scale = t[2].given };
  g_autoptr (GArray) changes = g_array_new (FALSE, FALSE, sizeof (TressBfresPoseChange));
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;

  for (guint k = 0; k < 3; k++)
    {
      pose.rotation[k] = t[0].v[k] * G_PI / 180;
      pose.translation[k] = t[1].v[k];
      pose.scale[k] = t[2].v[k];
    }
  if (!load_skeleton (file, model_path, bone, &models, &skeleton))
    return TRESS_CLI_UNREADABLE;
  if (!tress_bfres_set_pose (file->model, anim, bone, frame, &pose, skeleton, consent, changes,
                             notes, &error))
    {
      /* What only a skeleton can tell. */
      if (error->code == TRESS_ERROR_UNSUPPORTED && strstr (error->message, "bind pose") != NULL)
        {
          tress_cli_error ("%s: %s; name the model with --model MODEL", file->path, error->message);
          return TRESS_CLI_INVALID;
        }
      return refused (file, error);
    }
  for (guint i = 0; i < changes->len; i++)
    {
      const TressBfresPoseChange *c = &g_array_index (changes, TressBfresPoseChange, i);

      print_change (bone, tress_bfres_channel_label (c->channel), c->angle, c->action, c->requested,
                    c->stored, c->step);
    }
  for (guint i = 0; i < notes->len; i++)
    g_print ("note: %s\n", (const char *)notes->pdata[i]);
  return tress_cli_file_save (file, out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

static int
set_pose_niff (TressCliFile *file, guint group, const char *object, double frame, const Triple *t,
               TressCommitConsent consent, const char *out)
{
  TressNiffObjectPose pose
      = { .has_rotation = t[0].given, .has_translation = t[1].given, .has_scale = t[2].given };
  g_autoptr (GArray) changes = g_array_new (FALSE, FALSE, sizeof (TressNiffPoseChange));
  g_autoptr (GError) error = NULL;

  for (guint k = 0; k < 3; k++)
    {
      pose.rotation[k] = t[0].v[k] * G_PI / 180;
      pose.translation[k] = t[1].v[k];
      pose.scale[k] = t[2].v[k];
    }
  if (!tress_niff_set_pose (file->model, group, object, frame, &pose, consent, changes, &error))
    return refused (file, error);
  for (guint i = 0; i < changes->len; i++)
    {
      const TressNiffPoseChange *c = &g_array_index (changes, TressNiffPoseChange, i);

      print_change (object, c->label, c->angle, (TressBfresPoseAction)c->action, c->requested,
                    c->stored, 0);
    }
  return tress_cli_file_save (file, out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

static int
cmd_set_pose (int argc, char **argv)
{
  g_autofree char *out = NULL, *model = NULL;
  gboolean widen = FALSE, requantize = FALSE;
  g_auto (TressCliFile) file = { 0 };
  Triple t[3] = { { "--rotate" }, { "--translate" }, { "--scale" } };
  TressCommitConsent consent;
  double frame;
  guint anim;
  const GOptionEntry entries[] = {
    { "widen", 0, 0, G_OPTION_ARG_NONE, &widen,
      "Store a frame or value the curve's types cannot hold in a wider type, saying what it "
      "costs",
      NULL },
    { "requantize", 0, 0, G_OPTION_ARG_NONE, &requantize,
      "Accept a coarser step for a whole curve when a value does not fit the stored one (the keys "
      "not edited move)",
      NULL },
    { "model", 0, 0, G_OPTION_ARG_FILENAME, &model,
      "The BFRES holding the skeleton, whose bind pose gives what the animation stores no base "
      "value for (default: the file's own, else X.bfres or X.sbfres beside it)",
      "MODEL" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Where to write the result", "OUT" },
    { NULL },
  };

  g_autoptr (GPtrArray) hidden = g_ptr_array_new ();

  if (!take_triples (&argc, argv, t, G_N_ELEMENTS (t)))
    return TRESS_CLI_UNREADABLE;
  hide_negatives (argc, argv, hidden);
  if (!tress_cli_parse (
          &argc, &argv, entries,
          "FILE ANIMATION BONE FRAME [--rotate X Y Z] [--translate X Y Z] [--scale X Y Z] -o OUT",
          "Set a bone's local transform at FRAME: the key there moves, or one is inserted "
          "(a component with only a base value gets a curve when it changes). --rotate: "
          "degrees, Euler XYZ as the animation stores it (kept continuous with the keys "
          "around); --translate, --scale: in the bone's local frame. BFRES skeletal "
          "animations (BONE: a bone the animation animates) and NIFF AnimGroups (BONE: the "
          "object using the group, or the group's name)."))
    return TRESS_CLI_UNREADABLE;
  restore_negatives (argc, argv, hidden);
  if (argc != 5 || out == NULL)
    {
      tress_cli_error ("usage: set-pose FILE ANIMATION BONE FRAME [--rotate X Y Z] "
                       "[--translate X Y Z] [--scale X Y Z] [--widen | --requantize] -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  if (!t[0].given && !t[1].given && !t[2].given)
    {
      tress_cli_error ("set-pose needs at least one of --rotate, --translate, --scale");
      return TRESS_CLI_UNREADABLE;
    }
  if (!parse_number ("FRAME", argv[4], &frame))
    return TRESS_CLI_UNREADABLE;
  consent = (widen ? TRESS_COMMIT_WIDEN_FRAMES | TRESS_COMMIT_WIDEN_VALUES : 0)
            | (requantize ? TRESS_COMMIT_REQUANTIZE : 0);
  if (!tress_cli_file_load (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  if (file.format != &tress_format_bfres && file.format != &tress_format_niff)
    {
      tress_cli_error ("%s: set-pose works on BFRES skeletal animations and NIFF AnimGroups, not "
                       "on %s files",
                       file.path, file.format->id);
      return TRESS_CLI_UNREADABLE;
    }
  if (!tress_cli_find_anim (&file, argv[2], &anim))
    return TRESS_CLI_UNREADABLE;
  if (file.format == &tress_format_bfres)
    return set_pose_bfres (&file, anim, argv[3], frame, t, consent, model, out);
  return set_pose_niff (&file, anim, argv[3], frame, t, consent, out);
}

const TressCliCommand tress_cli_pose_commands[] = {
  { "set-pose",
    "FILE ANIMATION BONE FRAME [--rotate X Y Z] [--translate X Y Z] [--scale X Y Z] [--widen | "
    "--requantize] [--model MODEL] -o OUT",
    "Set a bone's local transform at a frame, as keys", cmd_set_pose },
  { NULL },
};
