/* tress-cli-curves.c: curve commands for every format with curves (BFRES, NIFF)
 *
 * They use nothing but TressCurveOps and the edit operations of
 * core/tress-curve-edit.h: the same path and the same code the curve editor
 * takes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/tress-curve-edit.h"
#include "formats/tress-curve-commit.h"
#include "tress-cli.h"

static gboolean
load_curve_file (TressCliFile *file, const char *path)
{
  if (!tress_cli_file_load (file, path))
    return FALSE;
  if (file->format->curves == NULL)
    {
      tress_cli_error ("%s: a %s file has no animation curves", path, file->format->display_name);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_double (const char *text, const char *what, double *out)
{
  char *end = NULL;
  double v;

  if (text == NULL)
    return FALSE;
  v = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (v))
    {
      tress_cli_error ("%s: expected a number, found '%s'", what, text);
      return FALSE;
    }
  *out = v;
  return TRUE;
}

static gboolean
parse_index (const char *text, guint n, const char *what, guint *out)
{
  guint64 v;

  if (!g_ascii_string_to_unsigned (text, 10, 0, n > 0 ? n - 1 : 0, &v, NULL) || n == 0)
    {
      tress_cli_error ("%s: expected an index from 0 to %u, found '%s'", what, n > 0 ? n - 1 : 0,
                       text);
      return FALSE;
    }
  *out = (guint)v;
  return TRUE;
}

/* TRUE when @spec names @curve: its path, or "Kind/path" (the animation kind
 * first, as the editor's tree shows it). */
static gboolean
curve_named (const TressCurve *curve, const char *spec)
{
  gsize kl = curve->kind != NULL ? strlen (curve->kind) : 0;

  return g_strcmp0 (curve->path, spec) == 0
         || (kl > 0 && g_ascii_strncasecmp (spec, curve->kind, kl) == 0 && spec[kl] == '/'
             && g_strcmp0 (spec + kl + 1, curve->path) == 0);
}

gboolean
tress_cli_find_curve (TressCliFile *file, const char *spec, guint *out)
{
  const TressCurveOps *ops = file->format->curves;
  guint n = ops->n_curves (file->model);
  g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) list = g_string_new (NULL);
  g_autofree char *quoted = NULL, *file_q = g_shell_quote (file->path);
  guint64 v;
  int first = -1;

  if (g_ascii_string_to_unsigned (spec, 10, 0, G_MAXUINT, &v, NULL))
    return parse_index (spec, n, "CURVE", out);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (TressCurve) curve = ops->get_curve (file->model, i);

      if (!curve_named (curve, spec))
        continue;
      if (first < 0)
        first = (int)i;
      g_ptr_array_add (found, g_strdup_printf ("%s/%s (curve %u)", curve->kind ? curve->kind : "",
                                               curve->path, i));
    }
  if (found->len == 1)
    {
      *out = (guint)first;
      return TRUE;
    }
  if (found->len == 0)
    {
      tress_cli_error ("%s: no curve has the path '%s' (tress-cli curves %s lists them)",
                       file->path, spec, file_q);
      return FALSE;
    }
  /* Animations of different kinds may share a name, and so their curves a path. */
  for (guint i = 0; i < found->len; i++)
    g_string_append_printf (list, "%s%s", i ? ", " : "", (const char *)found->pdata[i]);
  {
    g_autoptr (TressCurve) curve = ops->get_curve (file->model, (guint)first);
    g_autofree char *qualified = g_strdup_printf ("%s/%s", curve->kind, curve->path);

    quoted = g_shell_quote (qualified);
  }
  tress_cli_error ("%s: %u curves have the path '%s': %s; name one with its animation's kind "
                   "or its index, e.g. tress-cli eval %s %s 0",
                   file->path, found->len, spec, list->str, file_q, quoted);
  return FALSE;
}

static int
cmd_curves (int argc, char **argv)
{
  g_auto (TressCliFile) file = { 0 };
  const TressCurveOps *ops;
  guint n;

  if (!tress_cli_parse (&argc, &argv, NULL, "FILE",
                        "List every curve: index, path, type, key count, frame range."))
    return TRESS_CLI_UNREADABLE;
  if (argc != 2)
    {
      tress_cli_error ("curves needs exactly one FILE");
      return TRESS_CLI_UNREADABLE;
    }
  if (!load_curve_file (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  ops = file.format->curves;
  n = ops->n_curves (file.model);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (TressCurve) curve = ops->get_curve (file.model, i);
      double f0 = 0, f1 = 0;

      tress_curve_get_bounds (curve, &f0, &f1, NULL, NULL);
      g_print ("%u\t%s\t%s\t%u keys\t%g..%g\n", i, curve->path ? curve->path : "",
               curve->type_label
                   ? curve->type_label
                   : tress_interp_to_string (tress_curve_get_n_keys (curve) > 0
                                                 ? tress_curve_get_key (curve, 0)->interp
                                                 : TRESS_INTERP_LINEAR),
               tress_curve_get_n_keys (curve), f0, f1);
    }
  return TRESS_CLI_OK;
}

static int
cmd_eval (int argc, char **argv)
{
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (TressCurve) curve = NULL;
  guint index;

  if (!tress_cli_parse (&argc, &argv, NULL, "FILE CURVE FRAME…",
                        "Print the value of CURVE (an index or a path) at each FRAME."))
    return TRESS_CLI_UNREADABLE;
  if (argc < 4)
    {
      tress_cli_error ("eval needs FILE CURVE FRAME…");
      return TRESS_CLI_UNREADABLE;
    }
  if (!load_curve_file (&file, argv[1]) || !tress_cli_find_curve (&file, argv[2], &index))
    return TRESS_CLI_UNREADABLE;
  curve = file.format->curves->get_curve (file.model, index);
  for (int i = 3; i < argc; i++)
    {
      double frame;
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      if (!parse_double (argv[i], "FRAME", &frame))
        return TRESS_CLI_UNREADABLE;
      g_print ("%s\t%s\n", argv[i],
               g_ascii_formatd (buf, sizeof buf, "%.9g", tress_curve_evaluate (curve, frame)));
    }
  return TRESS_CLI_OK;
}

static gboolean opt_extend, opt_widen, opt_requantize;
static char *opt_out, *opt_frame, *opt_value, *opt_in, *opt_outslope, *opt_interp, *opt_tolerance;

/* The change a command makes, applied to a curve as the file holds it (again
 * after a widening, so that what it did not touch keeps its stored values).
 * Returns the index of the key to report, or -1 with @error set. */
typedef int (*CurveEdit) (TressCurve *curve, gpointer data, GError **error);

/* What storing @curve needs that the options do not give, as the refusal
 * naming the option that gives it; TRUE when the options cover it. Prints
 * the costs of what the options agree to. */
static gboolean
check_consent (TressCliFile *file, guint index, const TressCurve *curve, GError **error)
{
  const TressCurveOps *ops = file->format->curves;
  TressCommitPlan plan;
  gboolean ok = TRUE;

  if (!tress_curve_commit_plan (ops, file->model, index, curve, &plan, error))
    return FALSE;
  /* Keys past the end are refused without --extend in every format, also
   * where the animation lasts until its last key (NIFF): a frame typed wrong
   * would lengthen it unseen. */
  if (!opt_extend && plan.frame_count > 0)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "frame %g is past the end of the animation (frame %g); add --extend to "
                   "lengthen the animation",
                   tress_curve_get_key (curve, tress_curve_get_n_keys (curve) - 1)->frame,
                   curve->frame_count);
      ok = FALSE;
    }
  else if ((plan.needs & TRESS_COMMIT_WIDEN_FRAMES) && !opt_widen)
    {
      int key = tress_curve_find_key (curve, plan.frame, 0);

      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "key %d is at frame %g, which this curve's frame type does not store "
                   "(every %g); add --widen to store it (%s)",
                   key, plan.frame, curve->limits.frame_step, plan.frames_cost);
      ok = FALSE;
    }
  else if ((plan.needs & TRESS_COMMIT_REQUANTIZE) && !opt_requantize
           && !(opt_widen && plan.store.wide_type != NULL))
    {
      g_autofree char *why = tress_store_cost_dup_refusal (&plan.store, "add");

      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "%s (nothing written)", why);
      ok = FALSE;
    }
  else if (plan.needs & TRESS_COMMIT_WIDEN_FRAMES)
    g_print ("widening: %s\n", plan.frames_cost);
  tress_commit_plan_clear (&plan);
  return ok;
}

static void
print_notice (TressCliFile *file)
{
  const TressCurveOps *ops = file->format->curves;
  g_autofree char *raw = ops->dup_notice != NULL ? ops->dup_notice (file->model) : NULL;
  /* In the units the file stores (radians for angles). */
  g_autofree char *notice = tress_notice_render (raw, 1, "");

  if (notice != NULL)
    g_print ("note: %s\n", notice);
}

/* Applies @edit to curve @index (as the file holds it), widening first when
 * asked, encodes it, says what the file now stores for the key @edit names,
 * and writes @out. --tolerance widens the values' type until the stored
 * values are within it. */
static int
edit_and_save (TressCliFile *file, guint index, CurveEdit edit, gpointer data, gboolean sets_values,
               const char *out)
{
  const TressCurveOps *ops = file->format->curves;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressCurve) stored = NULL;
  double max_error = 0, tolerance = 0;
  int k = -1;
  double frame = 0;
  gboolean lossy_first = FALSE;
  TressCommitConsent consent
      = (opt_extend ? TRESS_COMMIT_LENGTHEN : 0)
        | (opt_widen ? TRESS_COMMIT_WIDEN_FRAMES | TRESS_COMMIT_WIDEN_VALUES : 0)
        | (opt_requantize ? TRESS_COMMIT_REQUANTIZE : 0);

  if (opt_tolerance != NULL && !parse_double (opt_tolerance, "--tolerance", &tolerance))
    return TRESS_CLI_UNREADABLE;
  /* --widen on an edit that would move other keys stores it in the type that
   * keeps them (the commit does); on any other it widens first, as asked. */
  if (opt_widen && sets_values)
    {
      g_autoptr (TressCurve) curve = ops->get_curve (file->model, index);
      TressCommitPlan plan;

      if (edit (curve, data, NULL) >= 0
          && tress_curve_commit_plan (ops, file->model, index, curve, &plan, NULL))
        {
          lossy_first = (plan.needs & TRESS_COMMIT_REQUANTIZE) != 0;
          tress_commit_plan_clear (&plan);
        }
    }
  if (opt_widen && sets_values && ops->widen_types != NULL && !lossy_first)
    {
      g_autofree char *cost
          = ops->describe_widening != NULL ? ops->describe_widening (file->model, index) : NULL;

      if (cost != NULL)
        {
          g_print ("widening: %s\n", cost);
          if (!ops->widen_types (file->model, index, NULL, &error))
            goto refused;
        }
    }
  for (;;)
    {
      g_autoptr (TressCurve) curve = ops->get_curve (file->model, index);
      g_autoptr (GBytes) before = NULL;

      k = edit (curve, data, &error);
      if (k < 0)
        goto refused;
      frame = tress_curve_get_key (curve, (guint)k)->frame;
      if (!check_consent (file, index, curve, &error))
        goto refused;
      before = ops->save_state (file->model, index);
      if (!tress_curve_commit (ops, file->model, index, curve, consent, &max_error, &error))
        {
          ops->restore_state (file->model, index, before);
          goto refused;
        }
      if (!(tolerance > 0 && max_error > tolerance) || ops->widen_types == NULL)
        break;
      /* Over the tolerance: the edit again on wider values. */
      ops->restore_state (file->model, index, before);
      {
        g_autofree char *cost
            = ops->describe_widening != NULL ? ops->describe_widening (file->model, index) : NULL;

        if (cost == NULL || !ops->widen_types (file->model, index, NULL, NULL))
          {
            /* As wide as it gets: the stored edit stands. */
            tress_curve_commit (ops, file->model, index, curve, consent, &max_error, NULL);
            break;
          }
        g_print ("widening (error %g over the tolerance %g): %s\n", max_error, tolerance, cost);
      }
    }
  print_notice (file);
  stored = ops->get_curve (file->model, index);
  {
    int at = tress_curve_find_key (stored, frame, 1e-6);

    if (at >= 0)
      {
        const TressKey *key = tress_curve_get_key (stored, (guint)at);
        char v[G_ASCII_DTOSTR_BUF_SIZE], st[G_ASCII_DTOSTR_BUF_SIZE];

        g_ascii_formatd (v, sizeof v, "%.9g", key->value);
        if (stored->value_step > 0)
          g_print ("key %d: frame %g, stored value %s (step %s)\n", at, key->frame, v,
                   g_ascii_formatd (st, sizeof st, "%.6g", stored->value_step));
        else
          g_print ("key %d: frame %g, stored value %s\n", at, key->frame, v);
      }
  }
  if (max_error > 0)
    g_print ("largest quantization error: %g\n", max_error);
  return tress_cli_file_save (file, out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;

refused:
  tress_cli_error ("%s: %s", file->path, error->message);
  return TRESS_CLI_INVALID;
}

#define WIDEN_ENTRIES                                                                              \
  { "widen",                                                                                       \
    0,                                                                                             \
    0,                                                                                             \
    G_OPTION_ARG_NONE,                                                                             \
    &opt_widen,                                                                                    \
    "Store frames between the stored ones, and values set in the next wider type, saying what "    \
    "it costs; an edit that would move other keys is stored in the narrowest wider type that "     \
    "keeps them",                                                                                  \
    NULL },                                                                                        \
      { "requantize",                                                                              \
        0,                                                                                         \
        0,                                                                                         \
        G_OPTION_ARG_NONE,                                                                         \
        &opt_requantize,                                                                           \
        "Accept a coarser step for the whole curve when an edit does not fit the stored one (the " \
        "keys not edited move)",                                                                   \
        NULL },                                                                                    \
  {                                                                                                \
    "tolerance", 0, 0, G_OPTION_ARG_STRING, &opt_tolerance,                                        \
        "Widen the values' type while the stored values lie further than T from the edited ones",  \
        "T"                                                                                        \
  }

typedef struct
{
  guint key;
} SetKeyData;

static int
edit_set_key (TressCurve *curve, gpointer data, GError **error)
{
  SetKeyData *d = data;
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  TressKey key;
  double v;

  if (d->key >= tress_curve_get_n_keys (curve))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, "there is no key %u", d->key);
      return -1;
    }
  key = *tress_curve_get_key (curve, d->key);
  if (opt_frame != NULL && parse_double (opt_frame, "--frame", &v))
    key.frame = v;
  if (opt_value != NULL && parse_double (opt_value, "--value", &v))
    key.value = v;
  /* One slope given where the format ties them sets both (the edit's rule). */
  if (opt_in != NULL && parse_double (opt_in, "--in", &v))
    key.in_slope = v;
  if (opt_outslope != NULL && parse_double (opt_outslope, "--out", &v))
    key.out_slope = v;
  if (opt_in != NULL || opt_outslope != NULL)
    key.tangent = TRESS_TANGENT_MANUAL;
  if (opt_interp != NULL)
    {
      TressInterp interp;

      tress_interp_from_string (opt_interp, &interp);
      key.interp = interp;
    }
  if (!tress_curve_edit_set_key (curve, keys, d->key, &key, error))
    return -1;
  /* Slopes asked for where the format stores none are refused, even when they
   * equal the ones the curve shows: nothing would be stored. */
  if ((opt_in != NULL || opt_outslope != NULL)
      && !tress_curve_check_key_slopes (curve, g_array_index (keys, guint, 0), error))
    return -1;
  return (int)g_array_index (keys, guint, 0);
}

static int
cmd_set_key (int argc, char **argv)
{
  const GOptionEntry entries[] = {
    { "frame", 0, 0, G_OPTION_ARG_STRING, &opt_frame, "Move the key to frame F", "F" },
    { "value", 0, 0, G_OPTION_ARG_STRING, &opt_value, "Set the key's value", "V" },
    { "in", 0, 0, G_OPTION_ARG_STRING, &opt_in, "Set the in slope (value per frame)", "S" },
    { "out", 0, 0, G_OPTION_ARG_STRING, &opt_outslope, "Set the out slope (value per frame)", "S" },
    { "interp", 0, 0, G_OPTION_ARG_STRING, &opt_interp,
      "Interpolation of the segment after the key: step, linear, hermite, baked", "I" },
    { "extend", 0, 0, G_OPTION_ARG_NONE, &opt_extend,
      "Lengthen the animation when the key moves past its end", NULL },
    WIDEN_ENTRIES,
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out, "Write the result to OUT", "OUT" },
    { NULL },
  };
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (TressCurve) curve = NULL;
  SetKeyData data;
  guint index;
  double v;
  TressInterp interp;

  if (!tress_cli_parse (&argc, &argv, entries, "FILE CURVE KEY -o OUT",
                        "Change one key of CURVE (an index or a path)."))
    return TRESS_CLI_UNREADABLE;
  if (argc != 4 || opt_out == NULL)
    {
      tress_cli_error ("set-key needs FILE CURVE KEY and -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  /* Every number before the file is read. */
  if ((opt_frame != NULL && !parse_double (opt_frame, "--frame", &v))
      || (opt_value != NULL && !parse_double (opt_value, "--value", &v))
      || (opt_in != NULL && !parse_double (opt_in, "--in", &v))
      || (opt_outslope != NULL && !parse_double (opt_outslope, "--out", &v)))
    return TRESS_CLI_UNREADABLE;
  if (opt_interp != NULL && !tress_interp_from_string (opt_interp, &interp))
    {
      tress_cli_error ("--interp: expected step, linear, hermite or baked, found '%s'", opt_interp);
      return TRESS_CLI_UNREADABLE;
    }
  if (!load_curve_file (&file, argv[1]) || !tress_cli_find_curve (&file, argv[2], &index))
    return TRESS_CLI_UNREADABLE;
  curve = file.format->curves->get_curve (file.model, index);
  if (!parse_index (argv[3], tress_curve_get_n_keys (curve), "KEY", &data.key))
    return TRESS_CLI_UNREADABLE;
  return edit_and_save (&file, index, edit_set_key, &data,
                        opt_value != NULL || opt_in != NULL || opt_outslope != NULL, opt_out);
}

typedef struct
{
  double frame;
} InsertKeyData;

static int
edit_insert_key (TressCurve *curve, gpointer data, GError **error)
{
  InsertKeyData *d = data;
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));
  double v;
  guint k;

  /* Past the end or between the stored frames: the frame as given, checked
   * later (--extend, --widen). */
  curve->limits.frame_max = MAX (curve->limits.frame_max, d->frame);
  curve->limits.frame_step = 0;
  if (!tress_curve_edit_insert (curve, keys, d->frame, error))
    return -1;
  k = g_array_index (keys, guint, 0);
  if (opt_value != NULL && parse_double (opt_value, "--value", &v))
    tress_curve_get_key (curve, k)->value = v;
  return (int)k;
}

static int
cmd_insert_key (int argc, char **argv)
{
  const GOptionEntry entries[] = {
    { "value", 0, 0, G_OPTION_ARG_STRING, &opt_value,
      "Value of the new key (default: the curve's value there)", "V" },
    { "extend", 0, 0, G_OPTION_ARG_NONE, &opt_extend,
      "Lengthen the animation when FRAME is past its end", NULL },
    WIDEN_ENTRIES,
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out, "Write the result to OUT", "OUT" },
    { NULL },
  };
  g_auto (TressCliFile) file = { 0 };
  InsertKeyData data;
  guint index;
  double v;

  if (!tress_cli_parse (&argc, &argv, entries, "FILE CURVE FRAME -o OUT",
                        "Insert a key on CURVE at FRAME, keeping the curve's shape."))
    return TRESS_CLI_UNREADABLE;
  if (argc != 4 || opt_out == NULL)
    {
      tress_cli_error ("insert-key needs FILE CURVE FRAME and -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  if (!parse_double (argv[3], "FRAME", &data.frame)
      || (opt_value != NULL && !parse_double (opt_value, "--value", &v)))
    return TRESS_CLI_UNREADABLE;
  if (!load_curve_file (&file, argv[1]) || !tress_cli_find_curve (&file, argv[2], &index))
    return TRESS_CLI_UNREADABLE;
  return edit_and_save (&file, index, edit_insert_key, &data, TRUE, opt_out);
}

static int
edit_delete_key (TressCurve *curve, gpointer data, GError **error)
{
  guint k = *(guint *)data;
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint));

  g_array_append_val (keys, k);
  if (!tress_curve_edit_delete (curve, keys, error))
    return -1;
  return (int)MIN (k, tress_curve_get_n_keys (curve) - 1);
}

static int
cmd_delete_key (int argc, char **argv)
{
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out, "Write the result to OUT", "OUT" },
    { NULL },
  };
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (TressCurve) curve = NULL;
  guint index, k;

  if (!tress_cli_parse (&argc, &argv, entries, "FILE CURVE KEY -o OUT", "Delete one key of CURVE."))
    return TRESS_CLI_UNREADABLE;
  if (argc != 4 || opt_out == NULL)
    {
      tress_cli_error ("delete-key needs FILE CURVE KEY and -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  if (!load_curve_file (&file, argv[1]) || !tress_cli_find_curve (&file, argv[2], &index))
    return TRESS_CLI_UNREADABLE;
  curve = file.format->curves->get_curve (file.model, index);
  if (!parse_index (argv[3], tress_curve_get_n_keys (curve), "KEY", &k))
    return TRESS_CLI_UNREADABLE;
  return edit_and_save (&file, index, edit_delete_key, &k, FALSE, opt_out);
}

/* Where a batch of edits stores its curves: the model, through TressCurveOps. */
typedef struct
{
  TressCliFile *file;
  GHashTable *got; /* curve index → the copy get() last returned */
  double max_error;
} ModelStore;

static const TressCurve *
model_get (gpointer data, guint index)
{
  ModelStore *store = data;
  TressCurve *c = store->file->format->curves->get_curve (store->file->model, index);

  g_hash_table_replace (store->got, GUINT_TO_POINTER (index), c);
  return c;
}

static gboolean
model_set (gpointer data, guint index, const TressCurve *curve, GError **error)
{
  ModelStore *store = data;
  double e = 0;

  if (!store->file->format->curves->set_curve (store->file->model, index, curve, &e, error))
    return FALSE;
  store->max_error = MAX (store->max_error, e);
  return TRUE;
}

static gboolean opt_all_angles;

static int
cmd_unwrap (int argc, char **argv)
{
  const GOptionEntry entries[] = {
    { "all", 0, 0, G_OPTION_ARG_NONE, &opt_all_angles, "Unwrap every angle curve of FILE", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out, "Write the result to OUT", "OUT" },
    { NULL },
  };
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  g_autoptr (TressCurveEditBatch) batch = tress_curve_edit_batch_new ();
  g_autoptr (GHashTable) got = NULL;
  g_autoptr (GError) error = NULL;
  ModelStore store = { &file };
  guint n_changed;

  if (!tress_cli_parse (&argc, &argv, entries, "FILE CURVE… -o OUT",
                        "Unwrap the angles of each CURVE (an index or a path): remove the jumps "
                        "of whole turns, and where the X, Y and Z angles of one rotation are all "
                        "given, its flips too (an Euler filter). Every key keeps its rotation."))
    return TRESS_CLI_UNREADABLE;
  if (argc < 2 || (argc < 3 && !opt_all_angles) || opt_out == NULL)
    {
      tress_cli_error ("unwrap needs FILE, CURVE… (or --all) and -o OUT");
      return TRESS_CLI_UNREADABLE;
    }
  if (!load_curve_file (&file, argv[1]))
    return TRESS_CLI_UNREADABLE;
  for (int i = 2; i < argc; i++)
    {
      guint index;

      if (!tress_cli_find_curve (&file, argv[i], &index))
        return TRESS_CLI_UNREADABLE;
      g_array_append_val (indices, index);
    }
  for (guint i = 0; opt_all_angles && i < file.format->curves->n_curves (file.model); i++)
    {
      g_autoptr (TressCurve) c = file.format->curves->get_curve (file.model, i);

      if (c->angle)
        g_array_append_val (indices, i);
    }
  for (guint i = 0; i < indices->len; i++)
    g_ptr_array_add (
        curves, file.format->curves->get_curve (file.model, g_array_index (indices, guint, i)));
  /* Every curve is checked before anything changes: all or nothing. */
  for (guint i = 0; i < indices->len; i++)
    {
      TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_UNWRAP };

      tress_curve_edit_set_unwrap_group (&e, (const TressCurve *const *)curves->pdata, curves->len,
                                         i);
      if (!tress_curve_edit_batch_add (batch, g_array_index (indices, guint, i), curves->pdata[i],
                                       NULL, 0, &e, &error))
        {
          tress_cli_error ("%s: %s", file.path, error->message);
          return TRESS_CLI_INVALID;
        }
    }
  n_changed = tress_curve_edit_batch_get_n_changed (batch);
  store.got = got = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)tress_curve_unref);
  if (!tress_curve_edit_batch_commit (batch, model_get, model_set, &store, NULL, &error))
    {
      tress_cli_error ("%s: %s", file.path, error->message);
      return TRESS_CLI_INVALID;
    }
  for (guint i = 0; i < n_changed; i++)
    g_print ("unwrapped: %s\n", tress_curve_edit_batch_get_curve (batch, i)->path);
  /* What is left of more than half a turn is motion the keys spell out: said,
   * so that "nothing changed" is not read as "no jumps". */
  for (guint i = 0; i < indices->len; i++)
    {
      g_autoptr (TressCurve) now
          = file.format->curves->get_curve (file.model, g_array_index (indices, guint, i));
      guint jumps = tress_curve_count_jumps (now);

      if (jumps > 0)
        g_print ("kept: %s: %u %s of more than half a turn between keys, motion its keys spell "
                 "out\n",
                 now->path, jumps, jumps == 1 ? "change" : "changes");
    }
  if (n_changed == 0)
    g_print ("curves unwrapped: 0 of %u: nothing changed (no jump between keys to remove)\n",
             indices->len);
  else if (n_changed < indices->len)
    g_print ("curves unwrapped: %u of %u (nothing to remove in the others)\n", n_changed,
             indices->len);
  else
    g_print ("curves unwrapped: %u of %u\n", n_changed, indices->len);
  if (store.max_error > 0)
    g_print ("largest quantization error: %g\n", store.max_error);
  return tress_cli_file_save (&file, opt_out) ? TRESS_CLI_OK : TRESS_CLI_UNWRITTEN;
}

const TressCliCommand tress_cli_curve_commands[] = {
  { "curves", "FILE", "List every curve with its path, type and keys", cmd_curves },
  { "eval", "FILE CURVE FRAME…", "Value of a curve at frames", cmd_eval },
  { "set-key",
    "FILE CURVE KEY [--frame F] [--value V] [--in S] [--out S] [--extend] [--widen | "
    "--requantize] [--tolerance T] -o OUT",
    "Change a key", cmd_set_key },
  { "insert-key",
    "FILE CURVE FRAME [--value V] [--extend] [--widen | --requantize] [--tolerance T] -o OUT",
    "Insert a key keeping the shape", cmd_insert_key },
  { "delete-key", "FILE CURVE KEY -o OUT", "Delete a key", cmd_delete_key },
  { "unwrap", "FILE CURVE…|--all -o OUT", "Unwrap angles: no jumps of whole turns, no flips",
    cmd_unwrap },
  { NULL },
};
