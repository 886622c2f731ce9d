/* tress-fur-preview-legend.c: the GL ribbon preview's legend and information line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-preview-private.h"

/* ---- legend and information ----------------------------------------------- */

void
fur_preview_update_legend (TressFurPreview *self)
{
  TressFurOverlay *overlay = TRESS_FUR_OVERLAY (self->overlay);
  TressChaFile *file = get_file (self);
  g_autoptr (GArray) entries = g_array_new (FALSE, TRUE, sizeof (TressFurLegendEntry));
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *title = NULL;
  TressFurLegendEntry e;

#define ADD(r, g, b, text)                                                                         \
  G_STMT_START                                                                                     \
  {                                                                                                \
    e.rgb[0] = (r);                                                                                \
    e.rgb[1] = (g);                                                                                \
    e.rgb[2] = (b);                                                                                \
    e.label = (text);                                                                              \
    g_ptr_array_add (labels, e.label);                                                             \
    g_array_append_val (entries, e);                                                               \
  }                                                                                                \
  G_STMT_END

  if (self->mesh == NULL || file == NULL)
    {
      tress_fur_overlay_set_legend (overlay, NULL, NULL, 0);
      return;
    }
  switch (self->colour_mode)
    {
    case TRESS_FUR_COLOUR_WEIGHT:
      {
        g_autofree char *part = fur_preview_part_label (self, self->colour_part);

        /* Translators: the legend of the weight colouring; %s is a body part. */
        title = g_strdup_printf (_ ("Weight on %s"), part);
        for (int w = 255; w >= 0; w -= 85)
          {
            guint8 rgb[3];

            tress_fur_weight_colour (w / 255.0, rgb);
            ADD (rgb[0], rgb[1], rgb[2],
                 w == 255 ? g_strdup (_ ("255 (all of it)"))
                 : w == 0 ? g_strdup (_ ("0 (none)"))
                          : g_strdup_printf ("%d", w));
          }
      }
      break;
    case TRESS_FUR_COLOUR_QUALITY:
      {
        static const char *const names[]
            = { N_ ("0 low"), N_ ("1 medium"), N_ ("2 high"), N_ ("3 or more: invalid") };

        title = g_strdup (_ ("Texture quality"));
        for (guint q = 0; q < 4; q++)
          {
            guint8 rgb[3];

            tress_fur_quality_colour (q, rgb);
            ADD (rgb[0], rgb[1], rgb[2], g_strdup (_ (names[q])));
          }
      }
      break;
    case TRESS_FUR_COLOUR_PROBLEMS:
      {
        g_autofree guint8 *marks = fur_preview_problem_marks (self);
        guint n = 0;
        guint8 rgb[3];

        for (guint g = 0; g < self->mesh->n_ribbons; g++)
          n += marks[g] != 0;
        title = g_strdup (_ ("Problems"));
        tress_fur_problem_colour (TRUE, rgb);
        ADD (rgb[0], rgb[1], rgb[2],
             g_strdup_printf (
                 ngettext ("with problems (%u ribbon)", "with problems (%u ribbons)", n), n));
        tress_fur_problem_colour (FALSE, rgb);
        ADD (rgb[0], rgb[1], rgb[2], g_strdup (_ ("without")));
      }
      break;
    case TRESS_FUR_COLOUR_BODY_PART:
    default:
      {
        /* The parts ribbons are attached to, as the colours show them: those
         * with the most ribbons (the colours one sees most) first. */
        g_autoptr (GHashTable) counts = g_hash_table_new (g_direct_hash, g_direct_equal);
        g_autoptr (GArray) attached = g_array_new (FALSE, FALSE, sizeof (PartCount));
        const guint max_rows = 6;
        GHashTableIter iter;
        gpointer key, value;

        for (guint mi = 0; file->radeon != NULL && mi < file->radeon->n_materials; mi++)
          {
            const TressChaMaterial *m = &file->radeon->materials[mi];

            for (guint r = 0; m->attach != NULL && r < m->n_ribbons; r++)
              {
                gpointer k = GUINT_TO_POINTER (m->attach[r] + 1);

                g_hash_table_insert (
                    counts, k,
                    GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, k)) + 1));
              }
          }
        g_hash_table_iter_init (&iter, counts);
        while (g_hash_table_iter_next (&iter, &key, &value))
          {
            PartCount pc = { GPOINTER_TO_UINT (key) - 1, GPOINTER_TO_UINT (value) };

            g_array_append_val (attached, pc);
          }
        g_array_sort (attached, fur_preview_compare_part_counts);
        title = g_strdup (_ ("Attached to"));
        for (guint i = 0; i < attached->len && i < max_rows; i++)
          {
            guint32 part = g_array_index (attached, PartCount, i).part;
            guint8 rgb[3];

            tress_fur_body_part_colour (part, rgb);
            ADD (rgb[0], rgb[1], rgb[2], fur_preview_part_label (self, part));
          }
        if (attached->len > max_rows)
          {
            guint more = attached->len - max_rows;

            ADD (TRESS_FUR_BACKGROUND_R, TRESS_FUR_BACKGROUND_G, TRESS_FUR_BACKGROUND_B,
                 g_strdup_printf (ngettext ("and %u more part", "and %u more parts", more), more));
          }
      }
      break;
    }
  if (self->n_selected > 0)
    ADD (TRESS_FUR_HIGHLIGHT_R, TRESS_FUR_HIGHLIGHT_G, TRESS_FUR_HIGHLIGHT_B,
         self->isolate ? g_strdup_printf (ngettext ("selected (%u ribbon, the others dimmed)",
                                                    "selected (%u ribbons, the others dimmed)",
                                                    self->n_selected),
                                          self->n_selected)
                       : g_strdup_printf (ngettext ("selected (%u ribbon)", "selected (%u ribbons)",
                                                    self->n_selected),
                                          self->n_selected));
#undef ADD
  tress_fur_overlay_set_legend (overlay, title,
                                (const TressFurLegendEntry *)(gpointer)entries->data, entries->len);
}

/* The information line: what is under the pointer, or what painting does. */
void
fur_preview_update_info (TressFurPreview *self)
{
  TressFurOverlay *overlay = TRESS_FUR_OVERLAY (self->overlay);
  TressChaFile *file = get_file (self);
  guint mi, r;

  if (self->paint_mode)
    {
      g_autofree char *part = fur_preview_part_label (self, self->colour_part);
      g_autofree char *hint = NULL;

      if (self->paint_status != NULL)
        {
          tress_fur_overlay_set_info (overlay, self->paint_status);
          return;
        }
      switch (self->tool)
        {
        case TRESS_CHA_PAINT_ADD:
          /* Translators: %s is a body part. */
          hint = g_strdup_printf (_ ("Paint toward %s (Ctrl: away, Shift: smooth)"), part);
          break;
        case TRESS_CHA_PAINT_SUBTRACT:
          hint = g_strdup_printf (_ ("Paint away from %s (Ctrl: toward, Shift: smooth)"), part);
          break;
        case TRESS_CHA_PAINT_SMOOTH:
        default:
          hint = g_strdup (_ ("Smooth weights with the neighbouring lines"));
          break;
        }
      tress_fur_overlay_set_info (overlay, hint);
      return;
    }
  if (self->hover < 0 || self->mesh == NULL || file == NULL
      || !tress_fur_mesh_ribbon_id (self->mesh, (guint)self->hover, &mi, &r) || file->radeon == NULL
      || mi >= file->radeon->n_materials || r >= file->radeon->materials[mi].n_ribbons)
    {
      tress_fur_overlay_set_info (overlay, NULL);
      return;
    }
  {
    g_autofree char *part = fur_preview_part_label (self, file->radeon->materials[mi].attach[r]);
    /* Translators: the ribbon under the pointer: material, ribbon, the body part it is on. */
    g_autofree char *text = g_strdup_printf (_ ("Material %u, ribbon %u: on %s"), mi, r, part);

    tress_fur_overlay_set_info (overlay, text);
  }
}
