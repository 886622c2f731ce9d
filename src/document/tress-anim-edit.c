/* tress-anim-edit.c: whole-animation operations on a curve document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-anim-edit.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "formats/bfres/tress-bfres-animops.h"
#include "formats/bfres/tress-bfres-skeletal.h"
#include "formats/niff/tress-niff-animops.h"

/* Copies tried before a duplicate's default name gives up on "_copyN". */
#define MAX_COPY_NAMES 10000

static const char *
format_id (TressCurveDocument *document)
{
  const TressFormat *format = tress_document_get_format (TRESS_DOCUMENT (document));

  return format != NULL ? format->id : NULL;
}

static gboolean
is_bfres (TressCurveDocument *document)
{
  return g_strcmp0 (format_id (document), "bfres") == 0;
}

static gboolean
is_niff (TressCurveDocument *document)
{
  return g_strcmp0 (format_id (document), "niff") == 0;
}

static gpointer
model_of (TressCurveDocument *document)
{
  return tress_document_get_model (TRESS_DOCUMENT (document));
}

void
tress_anim_info_clear (TressAnimInfo *info)
{
  g_clear_pointer (&info->name, g_free);
  g_clear_pointer (&info->spec, g_free);
}

gboolean
tress_anim_edit_supported (TressCurveDocument *document)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (document), FALSE);
  return model_of (document) != NULL && (is_bfres (document) || is_niff (document));
}

guint
tress_anim_edit_get_n_anims (TressCurveDocument *document)
{
  if (!tress_anim_edit_supported (document))
    return 0;
  return is_bfres (document) ? tress_bfres_get_n_anims (model_of (document))
                             : tress_niff_file_get_n_groups (model_of (document));
}

int
tress_anim_edit_anim_of_curve (TressCurveDocument *document, guint curve)
{
  gpointer model;

  if (!tress_anim_edit_supported (document))
    return -1;
  model = model_of (document);
  if (is_bfres (document))
    {
      TressBfresCurveInfo info;

      if (!tress_bfres_get_curve_info (model, curve, &info))
        return -1;
      return (int)info.anim;
    }
  if (curve >= tress_curve_document_get_n_curves (document))
    return -1;
  return (int)tress_niff_curve_get_group (model, curve);
}

gboolean
tress_anim_edit_get_info (TressCurveDocument *document, guint anim, TressAnimInfo *info)
{
  gpointer model;

  memset (info, 0, sizeof *info);
  if (!tress_anim_edit_supported (document) || anim >= tress_anim_edit_get_n_anims (document))
    return FALSE;
  model = model_of (document);
  if (is_bfres (document))
    {
      TressBfresAnimInfo a;

      if (!tress_bfres_get_anim_info (model, anim, &a))
        return FALSE;
      info->name = g_strdup (a.name);
      info->spec = tress_bfres_dup_anim_spec (model, anim);
      info->kind = g_intern_string (a.kind);
      info->length = a.frame_count;
      info->loops = a.loops;
      info->has_frame_count = TRUE;
      info->can_widen = TRUE;
      info->n_curves = a.n_curves;
    }
  else
    {
      TressNiffGroupInfo g;
      guint n = tress_curve_document_get_n_curves (document);

      if (!tress_niff_group_get_info (model, anim, &g))
        return FALSE;
      info->spec = tress_niff_dup_group_spec (model, anim);
      info->name = g_strdup (g.name != NULL ? g.name : info->spec);
      info->kind = "AnimGroup";
      info->length = tress_niff_group_get_frame_count (model, anim);
      info->loops = g.loop == 0;
      for (guint i = 0; i < n; i++)
        if (tress_niff_curve_get_group (model, i) == anim)
          info->n_curves++;
    }
  return TRUE;
}

/* The name animation @anim is stored under in its list, and that list
 * (BFRES: its kind's index group; NIFF: the AnimList), or NULL. */
static const char *
stored_name (TressCurveDocument *document, guint anim, const char **list)
{
  gpointer model = model_of (document);

  if (is_bfres (document))
    {
      TressBfresAnimInfo a;

      if (!tress_bfres_get_anim_info (model, anim, &a))
        return NULL;
      *list = a.kind;
      return a.name;
    }
  else
    {
      TressNiffGroupInfo g;

      if (!tress_niff_group_get_info (model, anim, &g))
        return NULL;
      *list = "AnimGroup";
      return g.name;
    }
}

/* Whether an animation that shares @anim's list is named @name. */
static gboolean
name_taken (TressCurveDocument *document, guint anim, const char *name)
{
  const char *list = NULL, *other_list = NULL;
  guint n = tress_anim_edit_get_n_anims (document);

  if (stored_name (document, anim, &list) == NULL && list == NULL)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const char *other = stored_name (document, i, &other_list);

      if (other != NULL && g_strcmp0 (other_list, list) == 0 && strcmp (other, name) == 0)
        return TRUE;
    }
  return FALSE;
}

char *
tress_anim_edit_unique_name (TressCurveDocument *document, guint anim)
{
  g_auto (TressAnimInfo) info = { 0 };

  if (!tress_anim_edit_get_info (document, anim, &info))
    return NULL;
  for (guint k = 1; k < MAX_COPY_NAMES; k++)
    {
      g_autofree char *name = k == 1 ? g_strdup_printf ("%s_copy", info.name)
                                     : g_strdup_printf ("%s_copy%u", info.name, k);

      if (!name_taken (document, anim, name))
        return g_steal_pointer (&name);
    }
  return g_strdup_printf ("%s_copy", info.name);
}

/* The scale @edit retimes by (RETIME), NAN when it cannot tell. */
static double
retime_scale (const TressAnimEdit *edit, const TressAnimInfo *info)
{
  if (edit->frames <= 0)
    return edit->scale;
  if (!(info->length > 0))
    return NAN;
  return edit->frames / info->length;
}

char *
tress_anim_edit_label (TressCurveDocument *document, const TressAnimEdit *edit)
{
  g_auto (TressAnimInfo) info = { 0 };
  const char *name;

  if (!tress_anim_edit_get_info (document, edit->anim, &info))
    return g_strdup (_ ("Edit Animation"));
  name = info.spec;
  switch (edit->op)
    {
    case TRESS_ANIM_EDIT_RETIME:
      if (edit->frames > 0)
        /* Translators: an undo label, "Retime Jump to 120 Frames" */
        return g_strdup_printf (
            ngettext ("Retime %s to %d Frame", "Retime %s to %d Frames", edit->frames), name,
            edit->frames);
      /* Translators: an undo label, "Retime Jump ×2" */
      return g_strdup_printf (_ ("Retime %s ×%g"), name, edit->scale);
    case TRESS_ANIM_EDIT_FRAME_COUNT:
      if (!info.has_frame_count)
        return g_strdup_printf (edit->allow ? _ ("Trim %s to End at Frame %d")
                                            : _ ("End %s at Frame %d"),
                                name, edit->frames);
      if (edit->allow)
        return g_strdup_printf (
            ngettext ("Trim %s to %d Frame", "Trim %s to %d Frames", edit->frames), name,
            edit->frames);
      return g_strdup_printf (ngettext ("Set %s to %d Frame", "Set %s to %d Frames", edit->frames),
                              name, edit->frames);
    case TRESS_ANIM_EDIT_LOOP:
      return g_strdup_printf (edit->loop ? _ ("Loop %s") : _ ("Play %s Once"), name);
    case TRESS_ANIM_EDIT_RENAME:
      return g_strdup_printf (_ ("Rename %s to %s"), name, edit->name);
    case TRESS_ANIM_EDIT_DUPLICATE:
      return g_strdup_printf (_ ("Duplicate %s as %s"), name, edit->name);
    case TRESS_ANIM_EDIT_DELETE:
      return g_strdup_printf (_ ("Delete %s"), name);
    default:
      return g_strdup (_ ("Edit Animation"));
    }
}

/* The whole model's bytes, as restore() takes them back. */
static GBytes *
save_state (TressCurveDocument *document, GError **error)
{
  gpointer model = model_of (document);

  if (is_bfres (document))
    return tress_bfres_get_bfres_bytes (model);
  return tress_document_get_format (TRESS_DOCUMENT (document))->serialize (model, error);
}

static gboolean
restore_bfres (gpointer model, GBytes *state, GError **error)
{
  return tress_bfres_restore_fres (model, state, error);
}

static gboolean
restore_niff (gpointer model, GBytes *state, GError **error)
{
  return tress_niff_file_restore (model, state, error);
}

static gboolean
run_bfres (TressBfres *b, const TressAnimEdit *edit, double scale, GPtrArray *notes, GError **error)
{
  switch (edit->op)
    {
    case TRESS_ANIM_EDIT_RETIME:
      return tress_bfres_retime (b, edit->anim, scale, edit->allow, notes, error);
    case TRESS_ANIM_EDIT_FRAME_COUNT:
      return tress_bfres_set_anim_frame_count (b, edit->anim, edit->frames, edit->allow, notes,
                                               error);
    case TRESS_ANIM_EDIT_LOOP:
      return tress_bfres_set_anim_loop (b, edit->anim, edit->loop, error);
    case TRESS_ANIM_EDIT_RENAME:
      return tress_bfres_rename_anim (b, edit->anim, edit->name, notes, error);
    case TRESS_ANIM_EDIT_DUPLICATE:
      return tress_bfres_duplicate_anim (b, edit->anim, edit->name, notes, error);
    case TRESS_ANIM_EDIT_DELETE:
      return tress_bfres_delete_anim (b, edit->anim, notes, error);
    default:
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "No operation %d", edit->op);
      return FALSE;
    }
}

static gboolean
run_niff (TressNiffFile *f, const TressAnimEdit *edit, double scale, GPtrArray *notes,
          GError **error)
{
  switch (edit->op)
    {
    case TRESS_ANIM_EDIT_RETIME:
      return tress_niff_retime (f, edit->anim, scale, notes, error);
    case TRESS_ANIM_EDIT_FRAME_COUNT:
      if (edit->frames < 0)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                       _ ("End frame %d: a frame is 0 or more"), edit->frames);
          return FALSE;
        }
      return tress_niff_set_group_end (f, edit->anim, (guint32)edit->frames, edit->allow, notes,
                                       error);
    case TRESS_ANIM_EDIT_LOOP:
      /* As tress-cli set-anim --loop on|off: endless (0) or once (1). */
      return tress_niff_set_group_loop (f, edit->anim, edit->loop ? 0 : 1, notes, error);
    case TRESS_ANIM_EDIT_RENAME:
      return tress_niff_rename_group (f, edit->anim, edit->name, notes, error);
    case TRESS_ANIM_EDIT_DUPLICATE:
      return tress_niff_duplicate_group (f, edit->anim, edit->name, notes, error);
    case TRESS_ANIM_EDIT_DELETE:
      return tress_niff_delete_group (f, edit->anim, notes, error);
    default:
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "No operation %d", edit->op);
      return FALSE;
    }
}

gboolean
tress_anim_edit_apply (TressCurveDocument *document, const TressAnimEdit *edit, GPtrArray *notes,
                       GError **error)
{
  g_auto (TressAnimInfo) info = { 0 };
  g_autoptr (GBytes) before = NULL, after = NULL;
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *label = NULL;
  gpointer model;
  double scale = 0;
  gboolean ok;

  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (document), FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);
  if (!tress_anim_edit_supported (document))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED, "%s",
                   _ ("Only BFRES animations and NIFF AnimGroups have whole-animation operations"));
      return FALSE;
    }
  if (!tress_anim_edit_get_info (document, edit->anim, &info))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("No animation %u (the file has %u)"),
                   edit->anim, tress_anim_edit_get_n_anims (document));
      return FALSE;
    }
  if (edit->op == TRESS_ANIM_EDIT_RETIME)
    {
      scale = retime_scale (edit, &info);
      if (!isfinite (scale))
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
                       _ ("%s is %g frames long; only a length above 0 can be scaled to %d "
                          "frames (give a scale)"),
                       info.spec, info.length, edit->frames);
          return FALSE;
        }
    }
  if ((edit->op == TRESS_ANIM_EDIT_RENAME || edit->op == TRESS_ANIM_EDIT_DUPLICATE)
      && edit->name == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE, "%s", _ ("No name given"));
      return FALSE;
    }

  label = tress_anim_edit_label (document, edit);
  before = save_state (document, error);
  if (before == NULL)
    return FALSE;
  model = model_of (document);
  ok = is_bfres (document) ? run_bfres (model, edit, scale, said, error)
                           : run_niff (model, edit, scale, said, error);
  if (!ok)
    return FALSE; /* the format leaves the model untouched */
  after = save_state (document, error);
  if (after != NULL && g_bytes_equal (before, after))
    return TRUE; /* nothing changed (a loop flag as it was): nothing to undo */
  if (after == NULL
      || !tress_curve_document_replace_state (document, label,
                                              is_bfres (document) ? restore_bfres : restore_niff,
                                              before, after, error))
    {
      /* Put back what was there; nothing is recorded. */
      g_autoptr (GError) again = NULL;

      if (!(is_bfres (document) ? restore_bfres : restore_niff) (model, before, &again))
        g_warning ("%s: %s", label, again->message);
      return FALSE;
    }
  for (guint i = 0; notes != NULL && i < said->len; i++)
    g_ptr_array_add (notes, g_strdup (g_ptr_array_index (said, i)));
  return TRUE;
}
