/* tress-cli-gltf-import.c: glTF import
 *
 *   import-gltf FILE GLTF [--animation NAME]… [--fps N] [--tolerance T] [--model MODEL] -o OUT
 *       each animation of GLTF (or each one named) replaces the skeletal
 *       animation of the same name in BFRES FILE, posed on the model the
 *       export uses (found as the preview finds it, or MODEL); says per
 *       animation what was matched, kept, added and removed and how close
 *       the result is to the glTF, and writes OUT.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/bfres/tress-bfres-scene.h"
#include "formats/bfres/tress-bfres-skeletal.h"
#include "interchange/tress-gltf-import-run.h"
#include "tress-cli.h"

#define FPS_MIN 0.01
#define FPS_MAX 10000.0

typedef struct
{
  char *model_path, *fps, *tolerance, *out;
  char **animations;
} ImportOptions;

static char *
skeletal_names (TressBfres *bfres)
{
  g_autoptr (GPtrArray) names = tress_gltf_import_skeletal_names (bfres);

  return tress_gltf_import_list_names (names);
}

static char *
gltf_names (const TressGltfDocument *doc)
{
  g_autoptr (GPtrArray) names = tress_gltf_import_gltf_names (doc);

  return tress_gltf_import_list_names (names);
}

static gboolean
parse_number (const char *text, const char *option, double min, double max, double *out)
{
  char *end = NULL;

  *out = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !(*out >= min && *out <= max))
    {
      tress_cli_error ("%s %s: expected a number from %g to %g", option, text, min, max);
      return FALSE;
    }
  return TRUE;
}

static GBytes *
load_model (const char *path, char **source)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr (GBytes) bytes = NULL;
  GStatBuf st;
  GBytes *fres;

  if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      tress_cli_error ("--model %s: not a regular file", path);
      return NULL;
    }
  bytes = g_file_load_bytes (file, NULL, NULL, &error);
  fres = bytes != NULL ? tress_bfres_unwrap (bytes, NULL, &error) : NULL;
  if (fres == NULL)
    {
      tress_cli_error ("--model %s: %s", path, error->message);
      return NULL;
    }
  *source = g_file_get_basename (file);
  return fres;
}

/* Which glTF animations go to which skeletal animations (pairs of guint:
 * glTF index, file index); what is left out is said. FALSE (bad usage)
 * when --animation names one that is not in both. */
static gboolean
choose (TressCliFile *file, const char *gltf_path, const TressGltfDocument *doc,
        TressGltfImport *imp, char **specs, GArray *pairs)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  if (specs != NULL)
    {
      for (guint i = 0; specs[i] != NULL; i++)
        {
          int g = tress_gltf_document_find_animation (doc, specs[i]);
          int f = tress_gltf_import_find_anim (imp, specs[i]);
          guint pair[2];

          if (g < 0)
            {
              g_autofree char *names = gltf_names (doc);

              tress_cli_error ("%s: no animation “%s”; its animations: %s", gltf_path, specs[i],
                               names);
              return FALSE;
            }
          if (f < 0)
            {
              g_autofree char *names = skeletal_names (file->model);

              tress_cli_error ("%s: no skeletal animation “%s”; the skeletal animations: %s",
                               file->path, specs[i], names);
              return FALSE;
            }
          if (!g_hash_table_add (seen, specs[i]))
            continue;
          pair[0] = (guint)g, pair[1] = (guint)f;
          g_array_append_vals (pairs, pair, 2);
        }
      return TRUE;
    }
  {
    g_autoptr (GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
    g_autoptr (GArray) all = tress_gltf_import_pair_all (doc, imp, skipped);

    for (guint i = 0; i < skipped->len; i++)
      g_print ("%s: %s\n", gltf_path, (const char *)skipped->pdata[i]);
    g_array_append_vals (pairs, all->data, all->len);
  }
  return TRUE;
}

static void
print_tolerance (const char *path, const TressGltfImportAnim *a, gboolean given)
{
  double size = a->skeleton_size;

  if (given)
    g_print ("%s: tolerance %g for every component (translations in the file's units, rotations "
             "in radians, scales)",
             path, a->tolerance[TRESS_GLTF_IMPORT_SCALE]);
  else
    g_print (
        "%s: tolerance: translations %.3g (%g of the skeleton's size, %.4g), rotations %g rad "
        "(%.2g°%s), scales %g",
        path, a->tolerance[TRESS_GLTF_IMPORT_TRANSLATION], TRESS_GLTF_IMPORT_TRANSLATION_TOLERANCE,
        size, a->tolerance[TRESS_GLTF_IMPORT_ROTATION],
        a->tolerance[TRESS_GLTF_IMPORT_ROTATION] * 180 / G_PI,
        a->rotation_mode == TRESS_BFRES_ROTATION_QUATERNION ? "; quaternion components half" : "",
        a->tolerance[TRESS_GLTF_IMPORT_SCALE]);
  g_print ("; curves are fitted within half of it, the file stores them within %.3g\n",
           a->store_tolerance);
}

static int
import_gltf (ImportOptions *o, const char *path, const char *gltf_path, double fps,
             double tolerance)
{
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) fres = NULL;
  g_autoptr (GFile) gltf_file = g_file_new_for_commandline_arg (gltf_path);
  g_autoptr (TressGltfDocument) doc = NULL;
  g_autoptr (TressGltfImport) imp = NULL;
  g_autoptr (GArray) pairs = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (TressGltfImportResult) result = NULL;
  g_autoptr (TressSceneAnimator) stored = NULL;
  g_autofree char *source = NULL;
  TressGltfImportOptions options = { fps, tolerance };
  gboolean stored_ok;

  if (!tress_cli_file_load (&file, path))
    return TRESS_CLI_UNREADABLE;
  if (file.format != &tress_format_bfres)
    {
      tress_cli_error ("%s: a %s file; import-gltf brings skeletal animations into BFRES files",
                       path, file.format->id);
      return TRESS_CLI_UNREADABLE;
    }
  if (o->model_path != NULL)
    {
      fres = load_model (o->model_path, &source);
      if (fres == NULL)
        return TRESS_CLI_UNREADABLE;
    }
  else
    {
      g_autoptr (GFile) gfile = g_file_new_for_commandline_arg (path);

      fres = tress_bfres_find_model (file.model, gfile, &source, &error);
      if (fres == NULL && error != NULL)
        {
          tress_cli_error ("%s: the model for it could not be read: %s", path, error->message);
          return TRESS_CLI_UNREADABLE;
        }
      if (fres == NULL)
        {
          g_autofree char *looked = tress_bfres_describe_model_search (file.model, gfile);

          tress_cli_error ("%s: no model to pose the animations on: %s; name one with --model "
                           "MODEL",
                           path, looked);
          return TRESS_CLI_INVALID;
        }
    }
  doc = tress_gltf_document_new_for_file (gltf_file, &error);
  if (doc == NULL)
    {
      tress_cli_error ("%s: %s", gltf_path, error->message);
      return TRESS_CLI_UNREADABLE;
    }
  imp = tress_gltf_import_new (file.model, fres, source, doc, &options, &error);
  if (imp == NULL)
    {
      tress_cli_error ("%s: %s", gltf_path, error->message);
      return TRESS_CLI_INVALID;
    }
  if (!choose (&file, gltf_path, doc, imp, o->animations, pairs))
    return TRESS_CLI_UNREADABLE;
  if (pairs->len == 0)
    {
      g_autofree char *ours = skeletal_names (file.model), *theirs = gltf_names (doc);

      tress_cli_error ("%s: nothing to import: no animation of it (%s) has the name of a skeletal "
                       "animation of %s (%s)",
                       gltf_path, theirs, path, ours);
      return TRESS_CLI_INVALID;
    }
  g_print ("%s: posed on model %s (from %s); joints from %s\n", path,
           tress_gltf_import_get_model (imp), source, tress_gltf_import_get_skin (imp));

  /* Every animation is made from the file as it was read, then the changed
   * ones stored in one go (the file as it was if any cannot be). */
  result = tress_gltf_import_build_all (imp, pairs, NULL, NULL, &error);
  if (result == NULL)
    {
      tress_cli_error ("%s: %s", gltf_path, error->message);
      return TRESS_CLI_UNREADABLE;
    }
  {
    const TressGltfImportAnim *first = result->anims->pdata[0];

    if (first->unmatched_joints->len > 0)
      {
        g_autofree char *names = tress_gltf_import_list_names (first->unmatched_joints);

        g_print ("%s: %u joints name no bone of %s and are not imported: %s\n", gltf_path,
                 first->unmatched_joints->len, tress_gltf_import_get_model (imp), names);
      }
    print_tolerance (path, first, tolerance > 0);
  }
  stored_ok = tress_gltf_import_store (result, file.model, &error);
  for (guint i = 0; i < result->anims->len; i++)
    {
      const TressGltfImportAnim *a = result->anims->pdata[i];
      g_autoptr (GPtrArray) lines = tress_gltf_import_describe (result, i);

      for (guint k = 0; k < lines->len; k++)
        g_print ("“%s”: %s\n", a->name, (const char *)lines->pdata[k]);
      if (!stored_ok && result->failed == (int)i)
        {
          tress_cli_error ("%s: %s; nothing written", path, error->message);
          return TRESS_CLI_INVALID;
        }
    }

  /* What the file now stores, posed again by the preview's code. */
  stored = tress_bfres_animator_new (file.model, fres, source, &error);
  for (guint i = 0; stored != NULL && i < result->anims->len; i++)
    {
      TressGltfImportAnim *a = result->anims->pdata[i];

      if (tress_gltf_import_measure_stored (imp, stored, file.model, a, &error))
        g_print ("“%s”: as stored: positions within %.2g of the skeleton's size (%s), rotations "
                 "within %.2g° (%s)\n",
                 a->name, a->stored_position_error, a->worst_stored_position,
                 a->stored_rotation_error, a->worst_stored_rotation);
    }
  if (error != NULL)
    {
      tress_cli_error ("%s: the new animations could not be posed again: %s", path, error->message);
      return TRESS_CLI_INVALID;
    }
  if (!tress_cli_file_save (&file, o->out))
    return TRESS_CLI_UNWRITTEN;
  {
    guint n = result->anims->len;

    g_print ("%s: wrote %s: %u animation%s imported (%u changed, %u as they were); BFRES "
             "%" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT " bytes (%+" G_GINT64_FORMAT ")\n",
             path, o->out, n, n == 1 ? "" : "s", result->n_changed, n - result->n_changed,
             result->size_before, result->size_after,
             (gint64)result->size_after - (gint64)result->size_before);
  }
  return TRESS_CLI_OK;
}

static int
cmd_import_gltf (int argc, char **argv)
{
  ImportOptions o = { 0 };
  double fps = TRESS_GLTF_IMPORT_DEFAULT_FPS, tolerance = 0;
  int status = TRESS_CLI_UNREADABLE;
  const GOptionEntry entries[] = {
    { "animation", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.animations,
      "A glTF animation to import (repeat for more; default: every one named like a skeletal "
      "animation of FILE)",
      "NAME" },
    { "fps", 0, 0, G_OPTION_ARG_STRING, &o.fps,
      "Frames per second: frame f is sampled at time f / N (default 30)", "N" },
    { "tolerance", 0, 0, G_OPTION_ARG_STRING, &o.tolerance,
      "How far a component may stray from the glTF, in its own units (default: 1e-4 of the "
      "skeleton's size for translations, 1e-4 rad for rotations, 1e-4 for scales)",
      "T" },
    { "model", 0, 0, G_OPTION_ARG_FILENAME, &o.model_path,
      "The BFRES holding the model (default: the file's own, else X.bfres or X.sbfres beside "
      "X_Animation.bfres)",
      "MODEL" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.out, "The BFRES to write", "OUT" },
    { NULL },
  };

  if (!tress_cli_parse (&argc, &argv, entries, "FILE GLTF -o OUT",
                        "Replace skeletal animations of BFRES FILE by the animations of the same "
                        "name in GLTF (.glb or .gltf). Exit status: 0 written, 1 nothing to "
                        "import (or it cannot be stored), 2 unreadable input or bad usage, 3 OUT "
                        "could not be written."))
    goto done;
  if (argc != 3 || o.out == NULL)
    {
      tress_cli_error ("usage: import-gltf FILE GLTF [--animation NAME]… [--fps N] [--tolerance "
                       "T] [--model MODEL] -o OUT");
      goto done;
    }
  if ((o.fps != NULL && !parse_number (o.fps, "--fps", FPS_MIN, FPS_MAX, &fps))
      || (o.tolerance != NULL && !parse_number (o.tolerance, "--tolerance", 1e-9, 1e6, &tolerance)))
    goto done;
  status = import_gltf (&o, argv[1], argv[2], fps, tolerance);

done:
  g_free (o.model_path);
  g_free (o.fps);
  g_free (o.tolerance);
  g_free (o.out);
  g_strfreev (o.animations);
  return status;
}

const TressCliCommand tress_cli_gltf_import_commands[] = {
  { "import-gltf", "FILE GLTF [--animation NAME]… [--fps N] [--tolerance T] [--model MODEL] -o OUT",
    "Bring glTF 2.0 animations (.glb, .gltf) into a BFRES file's skeletal animations",
    cmd_import_gltf },
  { NULL },
};
