/* tress-cli-gltf.c: glTF export
 *
 *   export-gltf FILE… [--model MODEL] [--animation NAME]… [--fps N]
 *               [--split-anim-groups] -o OUT
 *       BFRES: the model the animations of FILE play on (found as the
 *       preview finds it, or MODEL), its skeleton and its skeletal
 *       animations; NIFF: the file's scene and its animation (--animation
 *       names AnimGroups; --split-anim-groups: one animation per AnimGroup);
 *       as glTF 2.0: OUT.glb, or OUT.gltf with OUT.bin;
 *       several FILEs (or OUT a folder): one FOLDER/FILE-stem.glb each. What
 *       glTF cannot carry is listed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/bfres/tress-bfres-scene.h"
#include "formats/niff/tress-niff.h"
#include "interchange/tress-gltf-bfres.h"
#include "interchange/tress-gltf-niff.h"
#include "tress-cli.h"

#define FPS_MIN 0.01
#define FPS_MAX 10000.0

typedef struct
{
  char *model_path;
  GBytes *model_fres; /* unwrapped, when --model */
  char *model_source;
  char **animations;
  double fps;
  gboolean fps_given;   /* else NIFF takes the file's rate */
  gboolean split;       /* NIFF: one animation per AnimGroup */
  gboolean model_tried; /* load_model ran (once, for the first BFRES file) */
} ExportOptions;

static gboolean
has_extension (const char *path, const char *ext)
{
  gsize n = strlen (path), e = strlen (ext);

  return n > e && g_ascii_strcasecmp (path + n - e, ext) == 0;
}

/* "dir/Animal_Bass_Animation.sbfres" → "Animal_Bass_Animation" */
static char *
stem_of (const char *path)
{
  char *base = g_path_get_basename (path);
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  return base;
}

/* The file's animations for --animation (file numbering); FALSE when one
 * names none, several or a non-skeletal one (said, with the choices). */
static gboolean
find_animations (TressCliFile *file, char **specs, GArray *out)
{
  TressBfres *b = file->model;

  for (guint i = 0; specs != NULL && specs[i] != NULL; i++)
    {
      g_autoptr (GPtrArray) candidates = g_ptr_array_new_with_free_func (g_free);
      int a = tress_bfres_find_anim (b, specs[i], candidates);
      TressBfresAnimInfo info;

      if (a < 0 && candidates->len > 0)
        {
          g_autoptr (GString) list = g_string_new (NULL);

          for (guint k = 0; k < candidates->len; k++)
            g_string_append_printf (list, "%s%s", k ? ", " : "",
                                    (const char *)candidates->pdata[k]);
          tress_cli_error ("%s: --animation “%s” names %u animations: %s; name one with its kind",
                           file->path, specs[i], candidates->len, list->str);
          return FALSE;
        }
      if (a < 0)
        {
          g_autoptr (GString) names = g_string_new (NULL);
          guint n = tress_bfres_get_n_anims (b), shown = 0;

          for (guint k = 0; k < n; k++)
            if (tress_bfres_get_anim_info (b, k, &info) && g_strcmp0 (info.kind, "Skeletal") == 0)
              {
                if (shown < 12)
                  g_string_append_printf (names, "%s%s", shown ? ", " : "", info.name);
                shown++;
              }
          if (shown > 12)
            g_string_append_printf (names, " and %u more (tress-cli info %s)", shown - 12,
                                    file->path);
          tress_cli_error ("%s: no animation “%s”; the skeletal animations: %s", file->path,
                           specs[i], shown > 0 ? names->str : "none");
          return FALSE;
        }
      tress_bfres_get_anim_info (b, (guint)a, &info);
      if (g_strcmp0 (info.kind, "Skeletal") != 0)
        {
          tress_cli_error ("%s: --animation “%s” is a %s animation; glTF export carries skeletal "
                           "ones",
                           file->path, specs[i], info.kind);
          return FALSE;
        }
      g_array_append_val (out, a);
    }
  return TRUE;
}

static gboolean load_model (ExportOptions *o);

/* Writes @writer to @out (.glb, or .gltf beside its .bin), as the editor does. */
static gboolean
write_gltf (TressGltfWriter *writer, const char *out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (out);

  if (!tress_gltf_writer_save (writer, file, NULL, NULL, &error))
    {
      tress_cli_error ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

/* The AnimGroups --animation names (file numbering); FALSE when one names
 * none (said, with the AnimGroups). */
static gboolean
find_groups (TressCliFile *file, char **specs, GArray *out)
{
  guint n = tress_niff_file_get_n_groups (file->model);

  for (guint i = 0; specs != NULL && specs[i] != NULL; i++)
    {
      g_autoptr (GString) names = g_string_new (NULL);
      guint found = 0;

      for (guint g = 0; g < n; g++)
        {
          TressNiffGroupInfo info;

          if (tress_niff_group_get_info (file->model, g, &info)
              && g_strcmp0 (info.name, specs[i]) == 0)
            {
              g_array_append_val (out, g);
              found++;
            }
        }
      if (found > 0)
        continue;
      for (guint g = 0; g < n && g < 12; g++)
        {
          TressNiffGroupInfo info;

          tress_niff_group_get_info (file->model, g, &info);
          g_string_append_printf (names, "%s%s", g ? ", " : "",
                                  info.name != NULL ? info.name : "(unnamed)");
        }
      if (n > 12)
        g_string_append_printf (names, " and %u more (tress-cli info %s)", n - 12, file->path);
      tress_cli_error ("%s: no AnimGroup “%s”; the AnimGroups: %s", file->path, specs[i],
                       n > 0 ? names->str : "none");
      return FALSE;
    }
  return TRUE;
}

/* The frames per second the document's animation plays at, or 0. */
static double
document_fps (TressGltfWriter *writer)
{
  JsonObject *extras = tress_gltf_writer_get_animation_extras (writer, 0);

  extras = extras != NULL ? json_object_get_object_member (extras, "niff") : NULL;
  return extras != NULL ? json_object_get_double_member_with_default (extras, "fps", 0) : 0;
}

static int
export_niff (TressCliFile *file, const char *out, ExportOptions *o)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) groups = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (TressGltfWriter) writer = NULL;
  g_autofree char *source = g_path_get_basename (file->path);
  TressGltfNiffOptions options = { o->fps_given ? o->fps : 0, NULL, 0, o->split };
  guint n_nodes, n_meshes, n_skins, n_anims;
  double fps;

  if (o->model_path != NULL)
    {
      tress_cli_error ("%s: --model is for BFRES animations; a NIFF file holds its own scene",
                       file->path);
      return TRESS_CLI_UNREADABLE;
    }
  if (!find_groups (file, o->animations, groups))
    return TRESS_CLI_UNREADABLE;
  if (o->animations != NULL)
    {
      options.anims = (const guint *)groups->data;
      options.n_anims = groups->len;
    }
  writer = tress_gltf_niff_export (file->model, source, &options, notes, &error);
  if (writer == NULL)
    {
      tress_cli_error ("%s: %s", file->path, error->message);
      return TRESS_CLI_INVALID;
    }
  if (!write_gltf (writer, out))
    return TRESS_CLI_UNWRITTEN;
  n_nodes = tress_gltf_writer_count (writer, "nodes");
  n_meshes = tress_gltf_writer_count (writer, "meshes");
  n_skins = tress_gltf_writer_count (writer, "skins");
  n_anims = tress_gltf_writer_count (writer, "animations");
  fps = document_fps (writer);
  g_print ("%s: wrote %s: %u node%s, %u mesh%s, %u skin%s, ", file->path, out, n_nodes,
           n_nodes == 1 ? "" : "s", n_meshes, n_meshes == 1 ? "" : "es", n_skins,
           n_skins == 1 ? "" : "s");
  if (n_anims > 0)
    g_print ("%u animation%s at %g fps\n", n_anims, n_anims == 1 ? "" : "s", fps);
  else
    g_print ("no animation\n");
  for (guint i = 0; i < notes->len; i++)
    g_print ("%s: not carried: %s\n", file->path, (const char *)notes->pdata[i]);
  return TRESS_CLI_OK;
}

static int
export_one (const char *path, const char *out, ExportOptions *o)
{
  g_auto (TressCliFile) file = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) fres = NULL;
  g_autoptr (GArray) anims = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (TressGltfWriter) writer = NULL;
  g_autofree char *source = NULL;
  TressGltfBfresOptions options = { o->fps, NULL, 0 };
  guint n_anims, n_meshes, n_joints;

  if (!tress_cli_file_load (&file, path))
    return TRESS_CLI_UNREADABLE;
  if (file.format == &tress_format_niff)
    return export_niff (&file, out, o);
  if (file.format != &tress_format_bfres)
    {
      tress_cli_error ("%s: a %s file; export-gltf exports BFRES models and animations and NIFF "
                       "scenes (not creature fur yet)",
                       path, file.format->id);
      return TRESS_CLI_UNREADABLE;
    }
  /* --model is read for the first BFRES file (a NIFF file refuses it). */
  if (o->model_path != NULL && o->model_fres == NULL)
    {
      gboolean first = !o->model_tried;

      o->model_tried = TRUE;
      if (!first || !load_model (o))
        return TRESS_CLI_UNREADABLE;
    }
  if (!find_animations (&file, o->animations, anims))
    return TRESS_CLI_UNREADABLE;
  if (o->animations != NULL)
    {
      options.anims = (const guint *)anims->data;
      options.n_anims = anims->len;
    }
  if (o->model_fres != NULL)
    {
      fres = g_bytes_ref (o->model_fres);
      source = g_strdup (o->model_source);
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

          tress_cli_error ("%s: no model to export: %s; name one with --model MODEL", path, looked);
          return TRESS_CLI_INVALID;
        }
    }
  writer = tress_gltf_bfres_export (file.model, fres, source, &options, notes, &error);
  if (writer == NULL)
    {
      tress_cli_error ("%s: %s", path, error->message);
      return TRESS_CLI_INVALID;
    }
  if (!write_gltf (writer, out))
    return TRESS_CLI_UNWRITTEN;
  n_anims = tress_gltf_writer_count (writer, "animations");
  n_meshes = tress_gltf_writer_count (writer, "meshes");
  n_joints = tress_gltf_writer_count (writer, "skins") > 0
                 ? tress_gltf_writer_count (writer, "nodes") - n_meshes
                 : 0;
  g_print ("%s: wrote %s: model from %s, %u joint%s, %u mesh%s, %u animation%s at %g fps\n", path,
           out, source, n_joints, n_joints == 1 ? "" : "s", n_meshes, n_meshes == 1 ? "" : "es",
           n_anims, n_anims == 1 ? "" : "s", o->fps);
  for (guint i = 0; i < notes->len; i++)
    g_print ("%s: not carried: %s\n", path, (const char *)notes->pdata[i]);
  return TRESS_CLI_OK;
}

static gboolean
load_model (ExportOptions *o)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (o->model_path);
  GStatBuf st;

  if (g_stat (o->model_path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      tress_cli_error ("--model %s: not a regular file", o->model_path);
      return FALSE;
    }
  bytes = g_file_load_bytes (file, NULL, NULL, &error);
  if (bytes == NULL)
    {
      tress_cli_error ("--model: %s", error->message);
      return FALSE;
    }
  o->model_fres = tress_bfres_unwrap (bytes, NULL, &error);
  if (o->model_fres == NULL)
    {
      tress_cli_error ("--model %s: %s", o->model_path, error->message);
      return FALSE;
    }
  o->model_source = g_file_get_basename (file);
  return TRUE;
}

static int
cmd_export_gltf (int argc, char **argv)
{
  g_autofree char *out = NULL, *fps = NULL;
  g_autoptr (GHashTable) targets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) outs = g_ptr_array_new_with_free_func (g_free);
  ExportOptions o = { 0 };
  gboolean folder;
  int status = TRESS_CLI_OK;
  const GOptionEntry entries[] = {
    { "model", 0, 0, G_OPTION_ARG_FILENAME, &o.model_path,
      "The BFRES holding the model (default: the file's own, else X.bfres or X.sbfres beside "
      "X_Animation.bfres)",
      "MODEL" },
    { "animation", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.animations,
      "A skeletal animation to export, or a NIFF AnimGroup to animate (repeat for more; "
      "default: all)",
      "NAME" },
    { "fps", 0, 0, G_OPTION_ARG_STRING, &fps,
      "Frames per second: time = frame / N (default 30; NIFF: the file's rate where it has one)",
      "N" },
    { "split-anim-groups", 0, 0, G_OPTION_ARG_NONE, &o.split,
      "NIFF: one animation per AnimGroup, of its nodes (default: one animation, the AnimGroups "
      "playing together as in the preview)",
      NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out,
      "OUT.glb, OUT.gltf (with OUT.bin), or a folder for one FILE-stem.glb each", "OUT" },
    { NULL },
  };

  if (!tress_cli_parse (&argc, &argv, entries, "FILE… -o OUT",
                        "Export the model of BFRES FILE's animations, its skeleton and its "
                        "skeletal animations, or NIFF FILE's scene and its animation, as glTF "
                        "2.0 (.glb, or .gltf with a .bin). Exit "
                        "status: 0 written, 1 nothing to export, 2 unreadable input or bad usage, "
                        "3 OUT could not be written."))
    return TRESS_CLI_UNREADABLE;
  o.fps = TRESS_GLTF_BFRES_DEFAULT_FPS;
  if (argc < 2 || out == NULL)
    {
      tress_cli_error ("usage: export-gltf FILE… [--model MODEL] [--animation NAME]… [--fps N] "
                       "[--split-anim-groups] -o OUT");
      status = TRESS_CLI_UNREADABLE;
      goto done;
    }
  if (fps != NULL)
    {
      char *end = NULL;

      o.fps = g_ascii_strtod (fps, &end);
      if (end == fps || *end != '\0' || !(o.fps >= FPS_MIN && o.fps <= FPS_MAX))
        {
          tress_cli_error ("--fps %s: expected frames per second from %g to %g", fps, FPS_MIN,
                           FPS_MAX);
          status = TRESS_CLI_UNREADABLE;
          goto done;
        }
      o.fps_given = TRUE;
    }
  /* Where each file goes: OUT itself, or FOLDER/stem.glb. */
  folder = g_file_test (out, G_FILE_TEST_IS_DIR);
  if (!folder && argc > 2)
    {
      if (has_extension (out, ".glb") || has_extension (out, ".gltf"))
        {
          tress_cli_error ("%d FILEs: -o names a folder for their .glb files, not %s", argc - 1,
                           out);
          status = TRESS_CLI_UNREADABLE;
          goto done;
        }
      if (g_mkdir_with_parents (out, 0777) != 0)
        {
          tress_cli_error ("%s: the folder could not be made: %s", out, g_strerror (errno));
          status = TRESS_CLI_UNWRITTEN;
          goto done;
        }
      folder = TRUE;
    }
  if (!folder && !has_extension (out, ".glb") && !has_extension (out, ".gltf"))
    {
      tress_cli_error ("%s: OUT ends in .glb or .gltf, or is a folder", out);
      status = TRESS_CLI_UNREADABLE;
      goto done;
    }
  for (int i = 1; i < argc; i++)
    {
      g_autofree char *stem = stem_of (argv[i]);
      char *target = folder ? g_strdup_printf (
                         "%s%s%s.glb", out,
                         g_str_has_suffix (out, G_DIR_SEPARATOR_S) ? "" : G_DIR_SEPARATOR_S, stem)
                            : g_strdup (out);

      g_ptr_array_add (outs, target);
      if (!g_hash_table_add (targets, g_strdup (target)))
        {
          tress_cli_error ("%s: two FILEs would both be written there (same name before the "
                           "extension); export them in separate runs",
                           target);
          status = TRESS_CLI_UNREADABLE;
          goto done;
        }
    }
  /* Each file on its own: one that fails does not stop the others; the
   * exit status is the worst. */
  for (int i = 1; i < argc; i++)
    {
      int one = export_one (argv[i], outs->pdata[i - 1], &o); /* not in MAX (): run once */

      status = MAX (status, one);
    }

done:
  g_free (o.model_path);
  g_clear_pointer (&o.model_fres, g_bytes_unref);
  g_free (o.model_source);
  g_strfreev (o.animations);
  return status;
}

const TressCliCommand tress_cli_gltf_commands[] = {
  { "export-gltf",
    "FILE… [--model MODEL] [--animation NAME]… [--fps N] [--split-anim-groups] -o OUT",
    "Export a BFRES model, skeleton and skeletal animations, or a NIFF scene and its "
    "animation, as glTF 2.0 (.glb, .gltf)",
    cmd_export_gltf },
  { NULL },
};
