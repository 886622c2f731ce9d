/* tress-gltf-import-run.c: one import of glTF animations into a BFRES, for the
 * CLI and the dialog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-import-run.h"

#include <glib/gi18n-lib.h>

#include "formats/bfres/tress-bfres-skeletal.h"

char *
tress_gltf_import_list_names (GPtrArray *names)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < names->len && i < TRESS_GLTF_IMPORT_SHOWN_NAMES; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (const char *)names->pdata[i]);
  if (names->len > TRESS_GLTF_IMPORT_SHOWN_NAMES)
    g_string_append_printf (s, _ (" and %u more"), names->len - TRESS_GLTF_IMPORT_SHOWN_NAMES);
  if (names->len == 0)
    g_string_append (s, _ ("none"));
  return g_string_free (s, FALSE);
}

GArray *
tress_gltf_import_pair_all (const TressGltfDocument *doc, TressGltfImport *imp, GPtrArray *skipped)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (doc != NULL && imp != NULL, pairs);
  for (guint g = 0; g < doc->n_animations; g++)
    {
      const char *name = doc->animations[g].name;
      int f = name != NULL ? tress_gltf_import_find_anim (imp, name) : -1;
      guint pair[2] = { g, (guint)f };
      char *why = NULL;

      if (name == NULL)
        why = g_strdup_printf (_ ("not imported: animations[%u] has no name to match"), g);
      else if (f < 0)
        why = g_strdup_printf (_ ("not imported: “%s”: no skeletal animation of that name"), name);
      else if (!g_hash_table_add (seen, (gpointer)name))
        why = g_strdup_printf (_ ("not imported: animations[%u]: a second animation named “%s” "
                                  "(the first is imported)"),
                               g, name);
      else
        g_array_append_vals (pairs, pair, 2);
      if (why != NULL && skipped != NULL)
        g_ptr_array_add (skipped, why);
      else
        g_free (why);
    }
  return pairs;
}

void
tress_gltf_import_result_free (TressGltfImportResult *result)
{
  if (result == NULL)
    return;
  g_ptr_array_unref (result->anims);
  g_ptr_array_unref (result->notes);
  g_free (result);
}

TressGltfImportResult *
tress_gltf_import_build_all (TressGltfImport *imp, GArray *pairs, GCancellable *cancellable,
                             gint *done, GError **error)
{
  g_autoptr (TressGltfImportResult) r = g_new0 (TressGltfImportResult, 1);

  g_return_val_if_fail (imp != NULL && pairs != NULL && pairs->len % 2 == 0, NULL);
  r->fps = tress_gltf_import_get_fps (imp);
  r->failed = -1;
  r->anims = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_gltf_import_anim_free);
  r->notes = g_ptr_array_new_with_free_func ((GDestroyNotify)g_ptr_array_unref);
  for (guint i = 0; i < pairs->len; i += 2)
    {
      TressGltfImportAnim *a;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      a = tress_gltf_import_build (imp, g_array_index (pairs, guint, i),
                                   g_array_index (pairs, guint, i + 1), error);
      if (a == NULL)
        return NULL;
      g_ptr_array_add (r->anims, a);
      g_ptr_array_add (r->notes, g_ptr_array_new_with_free_func (g_free));
      r->n_changed += !a->unchanged;
      if (done != NULL)
        g_atomic_int_inc (done);
    }
  return g_steal_pointer (&r);
}

gboolean
tress_gltf_import_store (TressGltfImportResult *result, TressBfres *bfres, GError **error)
{
  g_autoptr (GArray) items = g_array_new (FALSE, TRUE, sizeof (TressBfresSkeletalReplacement));
  g_autofree guint *anim_of = g_new0 (guint, result->anims->len + 1);
  g_autoptr (GBytes) before = tress_bfres_get_bfres_bytes (bfres);
  g_autoptr (GBytes) after = NULL;
  guint failed = 0;

  g_return_val_if_fail (!result->stored, FALSE);
  for (guint i = 0; i < result->anims->len; i++)
    {
      TressGltfImportAnim *a = result->anims->pdata[i];
      TressBfresSkeletalReplacement r
          = { a->file_anim,   a->bones,           a->n_bones,
              a->frame_count, a->store_tolerance, result->notes->pdata[i] };

      if (a->unchanged)
        continue;
      anim_of[items->len] = i;
      g_array_append_val (items, r);
    }
  result->size_before = g_bytes_get_size (before);
  if (!tress_bfres_replace_skeletals (bfres, (TressBfresSkeletalReplacement *)(void *)items->data,
                                      items->len, &failed, error))
    {
      const TressGltfImportAnim *a = result->anims->pdata[anim_of[failed]];

      result->failed = (int)anim_of[failed];
      g_prefix_error (error, _ ("“%s” cannot be stored: "), a->name);
      return FALSE;
    }
  after = tress_bfres_get_bfres_bytes (bfres);
  result->size_after = g_bytes_get_size (after);
  result->stored = TRUE;
  return TRUE;
}

GPtrArray *
tress_gltf_import_describe (const TressGltfImportResult *result, guint i)
{
  const TressGltfImportAnim *a;
  const GPtrArray *notes;
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (i < result->anims->len, lines);
  a = result->anims->pdata[i];
  notes = result->notes->pdata[i];
  g_string_append_printf (s, _ ("%d frames at %g fps"), a->frame_count, result->fps);
  if (a->frame_count != a->old_frame_count)
    g_string_append_printf (s, _ (" (the frame count changes from %d)"), a->old_frame_count);
  g_string_append_printf (s, _ ("; %u bones matched"), a->n_matched);
  if (a->n_added_bones > 0)
    g_string_append_printf (s, _ (", %u of them newly animated"), a->n_added_bones);
  if (a->kept_bones->len > 0)
    {
      g_autofree char *kept = tress_gltf_import_list_names (a->kept_bones);

      g_string_append_printf (s, _ ("; %u bone animations kept as they were, having no joint: %s"),
                              a->kept_bones->len, kept);
    }
  g_ptr_array_add (lines, g_string_free (s, FALSE));
  if (a->sample_rate > 0 && a->sample_rate < result->fps)
    g_ptr_array_add (lines,
                     g_strdup_printf (_ ("the glTF holds one pose every 1/%g s, fewer than the "
                                         "%g frames a second imported: what moved between its "
                                         "poses is not in it (Blender samples at its scene's "
                                         "rate: keep the scene at the export's rate)"),
                                      a->sample_rate, result->fps));
  g_ptr_array_add (lines, g_strdup_printf (_ ("curves: %u added, %u removed, %u kept, %u refitted "
                                              "(%u keys fitted); %u base values"),
                                           a->curves_added, a->curves_removed, a->curves_kept,
                                           a->curves_refit, a->n_keys, a->base_values));
  g_ptr_array_add (
      lines, g_strdup_printf (
                 _ ("against the glTF: positions within %.2g of the skeleton's "
                    "size (%s), rotations within %.2g° (%s)"),
                 a->max_position_error, a->worst_position ? a->worst_position : _ ("no bone"),
                 a->max_rotation_error, a->worst_rotation ? a->worst_rotation : _ ("no bone")));
  if (a->curves_cut > 0)
    g_ptr_array_add (lines,
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "%u kept curve of bones without a joint ran "
                                                   "past the new end: cut at frame %d, what "
                                                   "plays before it unchanged",
                                                   "%u kept curves of bones without a joint "
                                                   "ran past the new end: cut at frame %d, "
                                                   "what plays before it unchanged",
                                                   a->curves_cut),
                                      a->curves_cut, a->frame_count));
  if (a->n_sheared > 0)
    g_ptr_array_add (lines, g_strdup_printf (_ ("%u bone poses (bone × frame) hold a shear or "
                                                "scale a BFRES bone cannot; they are placed with "
                                                "the nearest axes"),
                                             a->n_sheared));
  if (a->unchanged)
    g_ptr_array_add (lines, g_strdup (_ ("every component as the file has it: the animation stays "
                                         "as it was")));
  for (guint k = 0; k < notes->len; k++)
    g_ptr_array_add (lines, g_strdup (notes->pdata[k]));
  return lines;
}
