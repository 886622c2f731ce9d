/* tress-fur-inspector.c: the fur editor's inspector
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-inspector.h"

#include "tress-fur-edits.h"
#include "tress-fur-mixed.h"

#include "core/tress-count.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef guint8 Triple[3];

struct _TressFurInspector
{
  GtkWidget parent_instance;
  TressChaDocument *doc;
  TressFurNames *names; /* not owned */
  gboolean updating;

  GtkWidget *scrolled;
  GtkWidget *summary;
  GtkWidget *weight_spin[3];
  GtkWidget *triangle;
  GtkWidget *equal_button;
  GtkWidget *ref_dropdown[3];
  GtkWidget *attach_dropdown;
  GtkWidget *name_part;
  GtkWidget *name_entry;
  GtkWidget *byte_spin[3]; /* ambient, colour 1, colour 2 */
  GtkWidget *section_spin;
  GtkWidget *dir_spin[3];
  GtkWidget *quality_spin;
  GtkWidget *length_box;
  GtkWidget *problem_expander;
  GtkWidget *problem_title;
  GtkWidget *problem_list;
  GtkWidget *fix_all_button;
  GtkWidget *fix_status;
  gboolean fix_status_pending; /* the next refresh follows a Fix All */
  guint fix_status_total;      /* the problems left after it */
  GtkWidget *edit_box;         /* everything that needs a selection */

  /* The unique weight triples of the selected lines, and their lines. */
  GArray *triples;      /* Triple */
  GPtrArray *tri_lines; /* GArray of TressChaLineId per triple */
  int material;         /* the selection's material, or -1 when mixed/empty */
  float shown_dir[3];   /* the first line's direction, as the spins were set */

  /* An edit from one of the inspector's own widgets rebuilds the inspector
   * only once that widget's signal is over (its drop-down model or spin
   * button may be replaced). */
  guint editing;
  guint refresh_id;
};

G_DEFINE_FINAL_TYPE (TressFurInspector, tress_fur_inspector, GTK_TYPE_WIDGET)

static TressChaFile *
get_file (TressChaDocument *doc)
{
  return tress_cha_document_get_cha (doc);
}

static TressHistory *
get_history (TressChaDocument *doc)
{
  return tress_document_get_history (TRESS_DOCUMENT (doc));
}

static void
report (TressFurInspector *self, GError *error)
{
  if (error == NULL)
    return;
  gtk_label_set_text (GTK_LABEL (self->summary), error->message);
  g_message ("%s", error->message);
}

/* ---- refresh -------------------------------------------------------------- */

static void
clear_box (GtkWidget *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (box)) != NULL)
    gtk_box_remove (GTK_BOX (box), child);
}

static void on_fix_clicked (GtkButton *button, TressFurInspector *self);
static void on_problem_activated (GtkListBox *list, GtkListBoxRow *row, TressFurInspector *self);
static void on_length_changed (GtkSpinButton *spin, TressFurInspector *self);

/* The ribbon a problem's location names ("…/material M/ribbon R…"). */
static gboolean
problem_ribbon (const TressProblem *p, guint *material, guint *ribbon)
{
  const char *m = p->location != NULL ? strstr (p->location, "material ") : NULL;
  const char *r = m != NULL ? strstr (m, "/ribbon ") : NULL;

  return r != NULL && sscanf (m, "material %u", material) == 1
         && sscanf (r, "/ribbon %u", ribbon) == 1;
}

static GtkWidget *
problem_row (TressFurInspector *self, const TressProblem *p, gboolean in_selection)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *icon = gtk_image_new_from_icon_name (
      p->severity >= TRESS_SEVERITY_ERROR ? "dialog-error-symbolic" : "dialog-warning-symbolic");
  g_autofree char *message = g_markup_escape_text (p->message != NULL ? p->message : "", -1);
  g_autofree char *where = g_markup_escape_text (p->location != NULL ? p->location : "", -1);
  g_autofree char *text = NULL;
  GtkWidget *label = gtk_label_new (NULL);
  guint mi, ri;
  gboolean has_ribbon = problem_ribbon (p, &mi, &ri);

  /* What is wrong, then where (and at which byte of the file). */
  if (p->offset != G_MAXSIZE)
    text = g_strdup_printf ("%s\n<small>%s, offset 0x%" G_GSIZE_MODIFIER "x</small>", message,
                            where, p->offset);
  else
    text = g_strdup_printf ("%s\n<small>%s</small>", message, where);
  gtk_label_set_markup (GTK_LABEL (label), text);
  gtk_widget_add_css_class (row, p->severity >= TRESS_SEVERITY_ERROR ? "error" : "warning");
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  if (in_selection)
    gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), label);
  if (p->fix_id >= 0)
    {
      GtkWidget *fix = gtk_button_new_with_label (_ ("Fix"));

      guint64 *offset = g_new (guint64, 1);
      const char *m = p->location != NULL ? strstr (p->location, "material ") : NULL;
      guint material;

      /* The fix mends this row's problem only: the field at its offset, or,
       * for a summed-up row, the problems of its kind in its material. */
      *offset = p->offset;
      if (m == NULL || sscanf (m, "material %u", &material) != 1)
        material = G_MAXUINT;
      gtk_widget_set_tooltip_text (fix, p->fix);
      g_object_set_data (G_OBJECT (fix), "fix-id", GINT_TO_POINTER (p->fix_id));
      g_object_set_data_full (G_OBJECT (fix), "fix-offset", offset, g_free);
      g_object_set_data (G_OBJECT (fix), "fix-material", GUINT_TO_POINTER (material + 1));
      g_signal_connect (fix, "clicked", G_CALLBACK (on_fix_clicked), self);
      gtk_widget_set_valign (fix, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (box), fix);
    }
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  gtk_widget_set_margin_start (box, 4);
  gtk_widget_set_margin_end (box, 4);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  /* A row selects the ribbon (and so its lines) it is about. */
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), has_ribbon);
  if (has_ribbon)
    {
      g_object_set_data (G_OBJECT (row), "material", GUINT_TO_POINTER (mi + 1));
      g_object_set_data (G_OBJECT (row), "ribbon", GUINT_TO_POINTER (ri + 1));
      gtk_widget_set_tooltip_text (row, _ ("Select the ribbon"));
    }
  return row;
}

#define MAX_PROBLEM_ROWS 100

/* Every problem of the file: the selection's first (in bold), up to
 * MAX_PROBLEM_ROWS rows. */
static void
refresh_problems (TressFurInspector *self)
{
  GPtrArray *problems = tress_document_get_problems (TRESS_DOCUMENT (self->doc));
  guint i, shown = 0, n_rows = problems != NULL ? problems->len : 0;
  /* a summed-up row stands for the problems it sums up */
  guint total = tress_problem_list_count (problems, TRESS_SEVERITY_INFO), shown_problems = 0;
  gboolean fixable = FALSE;
  GtkWidget *child;
  g_autofree char *title = NULL;

  while ((child = gtk_widget_get_first_child (self->problem_list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->problem_list), child);
  for (int pass = 0; pass < 2; pass++)
    for (i = 0; i < n_rows && shown < MAX_PROBLEM_ROWS; i++)
      {
        const TressProblem *p = g_ptr_array_index (problems, i);
        guint mi, ri;
        gboolean selected
            = problem_ribbon (p, &mi, &ri) && tress_cha_document_is_selected (self->doc, mi, ri);

        if (selected != (pass == 0))
          continue;
        /* The selection has problems: they are shown. */
        if (selected)
          gtk_expander_set_expanded (GTK_EXPANDER (self->problem_expander), TRUE);
        gtk_list_box_append (GTK_LIST_BOX (self->problem_list), problem_row (self, p, selected));
        shown++;
        shown_problems += p->n_more > 0 ? p->n_more : 1;
      }
  for (i = 0; i < n_rows && !fixable; i++)
    fixable = ((const TressProblem *)g_ptr_array_index (problems, i))->fix_id >= 0;
  if (shown_problems < total)
    {
      guint more_n = total - shown_problems;
      g_autofree char *more
          = g_strdup_printf (ngettext ("and %u more: search “problem” in the tree",
                                       "and %u more: search “problem” in the tree", more_n),
                             more_n);
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *label = gtk_label_new (more);

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_list_box_append (GTK_LIST_BOX (self->problem_list), row);
    }
  if (total == 0)
    title = g_strdup (_ ("No problems"));
  else
    /* Translators: the inspector's heading of the file's problems. */
    title = g_strdup_printf (ngettext ("%u problem", "%u problems", total), total);
  gtk_label_set_text (GTK_LABEL (self->problem_title), title);
  gtk_widget_set_visible (self->problem_list, total > 0);
  gtk_widget_set_visible (self->fix_all_button, fixable);
  /* "Fixed N problems" stays until the problems change again. */
  if (self->fix_status_pending)
    self->fix_status_total = total;
  else if (total != self->fix_status_total)
    gtk_widget_set_visible (self->fix_status, FALSE);
  self->fix_status_pending = FALSE;
  if (total == 0)
    gtk_expander_set_expanded (GTK_EXPANDER (self->problem_expander), FALSE);
}

static void
on_problem_activated (GtkListBox *list, GtkListBoxRow *row, TressFurInspector *self)
{
  guint m = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "material"));
  guint r = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "ribbon"));
  TressChaRibbonId id = { m - 1, r - 1 };

  if (m == 0 || r == 0)
    return;
  /* The tree scrolls to it, the preview highlights it. */
  tress_cha_document_set_selection (self->doc, &id, 1, NULL);
}

static void refresh (TressFurInspector *self);

static gboolean
refresh_idle (gpointer data)
{
  TressFurInspector *self = data;

  self->refresh_id = 0;
  refresh (self);
  return G_SOURCE_REMOVE;
}

/* Refreshes now, or right after the handler of the inspector's own widget
 * that caused the change. */
static void
queue_refresh (TressFurInspector *self)
{
  if (self->editing == 0)
    refresh (self);
  else if (self->refresh_id == 0)
    self->refresh_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, refresh_idle, self, NULL);
}

/* ---- mixed values ----------------------------------------------------------
 *
 * Spin buttons show a value that differs among the selected lines as mixed
 * (tress-fur-mixed.h). Drop-downs get a last entry "(mixed)", selected, whose
 * choice does nothing.
 */

/* Fills a body-part drop-down with the material's applied parts (with their
 * names) and selects entry @selected, or the "(mixed)" entry. */
static void
fill_part_model (TressFurInspector *self, GtkWidget *dropdown, const TressChaMaterial *m,
                 guint selected, gboolean mixed)
{
  g_autoptr (GtkStringList) list = gtk_string_list_new (NULL);
  guint i;

  for (i = 0; m != NULL && i < m->n_applied; i++)
    {
      g_autofree char *label = tress_fur_names_label (self->names, m->applied[i]);

      gtk_string_list_append (list, label);
    }
  if (mixed && m != NULL)
    gtk_string_list_append (list, _ ("(mixed)"));
  gtk_drop_down_set_model (GTK_DROP_DOWN (dropdown), G_LIST_MODEL (list));
  if (mixed && m != NULL)
    selected = m->n_applied;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), m != NULL && selected <= m->n_applied
                                                            ? selected
                                                            : GTK_INVALID_LIST_POSITION);
}

typedef struct
{
  guint n;
  gboolean mixed;
  double first;
} Field;

static void
field_add (Field *f, double value)
{
  if (f->n++ == 0)
    f->first = value;
  else if (value != f->first)
    f->mixed = TRUE;
}

static void
refresh (TressFurInspector *self)
{
  TressChaFile *file = get_file (self->doc);
  const TressChaRibbonId *ids;
  guint n_ids, n_lines, i, k;
  g_autofree TressChaLineId *lines = tress_cha_document_get_selected_lines (self->doc, &n_lines);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  const TressChaMaterial *m = NULL;
  const TressChaLine *first_line = NULL;
  g_autofree char *summary = NULL;
  Field weight[3] = { { 0 } }, ref[3] = { { 0 } }, bytes[3] = { { 0 } }, section = { 0 };
  Field dir[3] = { { 0 } }, attach = { 0 }, quality = { 0 };
  float min_max = G_MAXFLOAT, max_max = 0;

  self->updating = TRUE;
  ids = tress_cha_document_get_selection (self->doc, &n_ids);
  self->material = n_ids > 0 ? (int)ids[0].material : -1;
  for (i = 1; i < n_ids; i++)
    if ((int)ids[i].material != self->material)
      self->material = -1;
  if (self->material >= 0)
    m = &file->radeon->materials[self->material];

  if (n_ids == 0)
    summary = g_strdup (_ ("Select ribbons in the tree or the preview"));
  else
    {
      g_autofree char *n_r = tress_format_count (n_ids);
      g_autofree char *n_l = tress_format_count (n_lines);
      g_autofree char *ribbons = g_strdup_printf (ngettext ("%s ribbon", "%s ribbons", n_ids), n_r);

      /* Translators: the first "%s" is "N ribbons", the second a count of lines. */
      summary = g_strdup_printf (
          ngettext ("%s, %s line selected", "%s, %s lines selected", n_lines), ribbons, n_l);
    }
  gtk_label_set_text (GTK_LABEL (self->summary), summary);
  gtk_widget_set_sensitive (self->edit_box, n_ids > 0);

  /* Unique weight triples, and which fields differ among the lines. */
  g_array_set_size (self->triples, 0);
  g_ptr_array_set_size (self->tri_lines, 0);
  for (i = 0; i < n_lines; i++)
    {
      const TressChaLine *line = &file->radeon->materials[lines[i].material].lines[lines[i].line];
      Triple t = { tress_cha_line_get_weight (line, 0), tress_cha_line_get_weight (line, 1),
                   tress_cha_line_get_weight (line, 2) };
      guint key = (guint)t[0] | ((guint)t[1] << 8) | ((guint)t[2] << 16) | (1u << 24);
      gpointer idx = g_hash_table_lookup (seen, GUINT_TO_POINTER (key));
      GArray *group;

      if (first_line == NULL)
        first_line = line;
      if (idx == NULL)
        {
          g_array_append_val (self->triples, t);
          g_ptr_array_add (self->tri_lines, g_array_new (FALSE, FALSE, sizeof (TressChaLineId)));
          idx = GUINT_TO_POINTER (self->triples->len);
          g_hash_table_insert (seen, GUINT_TO_POINTER (key), idx);
        }
      group = g_ptr_array_index (self->tri_lines, GPOINTER_TO_UINT (idx) - 1);
      g_array_append_val (group, lines[i]);
      for (k = 0; k < 3; k++)
        {
          field_add (&weight[k], t[k]);
          field_add (&ref[k], line->refs[k]);
          field_add (&dir[k], line->direction[k]);
        }
      field_add (&bytes[0], line->ambient);
      field_add (&bytes[1], line->colour[0]);
      field_add (&bytes[2], line->colour[1]);
      field_add (&section, MAX (tress_cha_line_section (line), 1));
    }
  for (i = 0; i < n_ids; i++)
    {
      const TressChaMaterial *rm = &file->radeon->materials[ids[i].material];
      float max = tress_cha_max_length (rm->n_sections[ids[i].ribbon]);

      field_add (&attach, rm->attach[ids[i].ribbon]);
      field_add (&quality, rm->quality[ids[i].ribbon]);
      min_max = MIN (min_max, max);
      max_max = MAX (max_max, max);
    }
  tress_weight_triangle_set_points (TRESS_WEIGHT_TRIANGLE (self->triangle),
                                    (const guint8 (*)[3])self->triples->data, self->triples->len);
  gtk_widget_set_sensitive (self->equal_button, self->triples->len > 1);

  for (k = 0; k < 3; k++)
    tress_fur_show_spin (self->weight_spin[k], weight[k].first, weight[k].mixed);

  /* Corner labels: each reference's part when all lines agree on it. */
  {
    g_autofree char *labels[3] = { NULL, NULL, NULL };

    for (k = 0; k < 3; k++)
      {
        gint64 part = first_line != NULL && m != NULL && !ref[k].mixed
                          ? tress_cha_material_ref_body_part (m, first_line, k)
                          : -1;

        if (part >= 0)
          {
            g_autofree char *name = tress_fur_names_label (self->names, (guint32)part);

            /* Translators: a corner of the weight triangle: the reference slot,
             * then its body part ("ref 2: 5 · left leg"); two slots may name
             * the same part. */
            labels[k] = g_strdup_printf (_ ("ref %u: %s"), k + 1, name);
          }
        else if (ref[k].mixed)
          /* Translators: a corner of the weight triangle whose body part differs among lines. */
          labels[k] = g_strdup_printf (_ ("ref %u (mixed)"), k + 1);
        else
          labels[k] = g_strdup_printf (_ ("ref %u"), k + 1);
        fill_part_model (self, self->ref_dropdown[k], m,
                         first_line != NULL ? first_line->refs[k] / 3u : G_MAXUINT, ref[k].mixed);
        gtk_widget_set_sensitive (self->ref_dropdown[k], m != NULL);
      }
    tress_weight_triangle_set_labels (TRESS_WEIGHT_TRIANGLE (self->triangle),
                                      (const char *const *)labels);
  }
  fill_part_model (
      self, self->attach_dropdown, m,
      m != NULL ? (guint)MAX (tress_cha_material_find_applied (m, m->attach[ids[0].ribbon]), -1)
                : G_MAXUINT,
      attach.mixed);
  gtk_widget_set_sensitive (self->attach_dropdown, m != NULL);

  for (k = 0; k < 3; k++)
    tress_fur_show_spin (self->byte_spin[k], bytes[k].first, bytes[k].mixed);
  tress_fur_show_spin (self->section_spin, section.n > 0 ? section.first : 1, section.mixed);
  for (k = 0; k < 3; k++)
    {
      self->shown_dir[k] = (float)dir[k].first;
      tress_fur_show_spin (self->dir_spin[k], dir[k].first, dir[k].mixed);
    }
  tress_fur_show_spin (self->quality_spin, quality.first, quality.mixed);

  /* Lengths per morality. */
  clear_box (self->length_box);
  if (n_ids > 0)
    {
      guint mor;

      for (mor = 0; mor <= file->radeon->n_moralities; mor++)
        {
          GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
          g_autofree char *name
              = mor == 0 ? g_strdup (_ ("base"))
                         : g_strndup ((const char *)file->radeon->morality_names[mor - 1],
                                      TRESS_CHA_NAME_SIZE);
          g_autofree char *text
              = min_max == max_max
                    ? g_strdup_printf (_ ("%s (max %.4f)"), name, max_max)
                    /* Translators: a length's maximum differs with the ribbons' section counts. */
                    : g_strdup_printf (_ ("%s (max %.4f–%.4f)"), name, min_max, max_max);
          GtkWidget *label = gtk_label_new (text);
          GtkWidget *spin = gtk_spin_button_new_with_range (0, 10, 0.001);
          Field length = { 0 };

          for (i = 0; i < n_ids; i++)
            {
              const TressChaMaterial *rm = &file->radeon->materials[ids[i].material];

              field_add (&length, rm->lengths != NULL ? rm->lengths[mor][ids[i].ribbon] : 0);
            }
          gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 4);
          tress_fur_show_spin (spin, length.first, length.mixed);
          g_object_set_data (G_OBJECT (spin), "morality", GUINT_TO_POINTER (mor));
          g_signal_connect (spin, "value-changed", G_CALLBACK (on_length_changed), self);
          gtk_label_set_xalign (GTK_LABEL (label), 0);
          /* Within the inspector's width, whatever the text. */
          gtk_label_set_wrap (GTK_LABEL (label), TRUE);
          gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
          gtk_label_set_max_width_chars (GTK_LABEL (label), 14);
          gtk_widget_set_hexpand (label, TRUE);
          gtk_box_append (GTK_BOX (row), label);
          gtk_box_append (GTK_BOX (row), spin);
          gtk_box_append (GTK_BOX (self->length_box), row);
        }
    }
  refresh_problems (self);
  self->updating = FALSE;
}

/* ---- handlers ------------------------------------------------------------- */

static void
on_points_moved (TressWeightTriangle *tri, gpointer data, guint n, TressFurInspector *self)
{
  const Triple *moved = data;
  TressHistory *history = get_history (self->doc);
  guint i, total = 0, calls = 0;
  g_autoptr (GError) error = NULL;
  g_autofree char *label = NULL;

  if (n != self->triples->len)
    return;
  for (i = 0; i < n; i++)
    if (memcmp (moved[i], g_array_index (self->triples, Triple, i), 3) != 0)
      {
        total += ((GArray *)g_ptr_array_index (self->tri_lines, i))->len;
        calls++;
      }
  if (calls == 0)
    return;
  label = g_strdup_printf (ngettext ("Set weights of %u line", "Set weights of %u lines", total),
                           total);
  if (calls > 1)
    tress_history_begin_group (history, label);
  for (i = 0; i < n && error == NULL; i++)
    {
      GArray *lines = g_ptr_array_index (self->tri_lines, i);

      if (memcmp (moved[i], g_array_index (self->triples, Triple, i), 3) != 0)
        tress_cha_set_weights (get_file (self->doc), history,
                               (const TressChaLineId *)(gpointer)lines->data, lines->len, moved[i],
                               &error);
    }
  if (calls > 1)
    tress_history_end_group (history);
  report (self, error);
  refresh (self);
}

static void
on_equal_clicked (GtkButton *button, TressFurInspector *self)
{
  g_autoptr (GError) error = NULL;

  if (self->triples->len == 0)
    return;
  tress_fur_set_selection_weights (self->doc, g_array_index (self->triples, Triple, 0), &error);
  report (self, error);
}

static void
on_weight_spin_changed (GtkSpinButton *spin, TressFurInspector *self)
{
  guint k;
  g_autoptr (GError) error = NULL;

  if (self->updating)
    return;
  for (k = 0; k < 3 && self->weight_spin[k] != GTK_WIDGET (spin); k++)
    ;
  self->editing++;
  if (k < 3)
    tress_fur_set_selection_weight (self->doc, k, (guint8)gtk_spin_button_get_value_as_int (spin),
                                    &error);
  self->editing--;
  report (self, error);
}

static void
on_ref_selected (GtkDropDown *dd, GParamSpec *pspec, TressFurInspector *self)
{
  const TressChaRibbonId *ids;
  guint n, i, entry, k;
  TressHistory *history = get_history (self->doc);
  g_autoptr (GError) error = NULL;
  g_autofree char *label = NULL;
  g_autofree TressChaRibbonId *copy = NULL;

  if (self->updating || self->material < 0)
    return;
  /* Only the reference whose drop-down changed: the others may differ from
   * ribbon to ribbon (the drop-downs show the first line's). */
  for (k = 0; k < 3 && self->ref_dropdown[k] != GTK_WIDGET (dd); k++)
    ;
  entry = gtk_drop_down_get_selected (dd);
  /* The last entry of a mixed drop-down, "(mixed)", sets nothing. */
  if (k == 3 || entry == GTK_INVALID_LIST_POSITION
      || entry >= get_file (self->doc)->radeon->materials[self->material].n_applied)
    return;
  ids = tress_cha_document_get_selection (self->doc, &n);
  copy = g_memdup2 (ids, n * sizeof *ids);
  /* Translators: "Set body part 2 of 12 ribbons" */
  label = g_strdup_printf (
      ngettext ("Set body part %u of %u ribbon", "Set body part %u of %u ribbons", n), k + 1, n);
  self->editing++;
  tress_history_begin_group (history, label);
  for (i = 0; i < n && error == NULL; i++)
    tress_cha_set_ribbon_ref (get_file (self->doc), history, copy[i], k, entry, &error);
  if (error != NULL)
    tress_history_cancel_group (history);
  else
    tress_history_end_group (history);
  self->editing--;
  report (self, error);
}

static void
on_attach_selected (GtkDropDown *dd, GParamSpec *pspec, TressFurInspector *self)
{
  TressChaFile *file = get_file (self->doc);
  const TressChaRibbonId *ids;
  guint n, i, sel = gtk_drop_down_get_selected (dd);
  TressHistory *history = get_history (self->doc);
  g_autoptr (GError) error = NULL;
  g_autofree char *label = NULL;
  g_autofree TressChaRibbonId *copy = NULL;
  const TressChaMaterial *m;

  if (self->updating || self->material < 0 || sel == GTK_INVALID_LIST_POSITION)
    return;
  m = &file->radeon->materials[self->material];
  if (sel >= m->n_applied)
    return;
  ids = tress_cha_document_get_selection (self->doc, &n);
  label = g_strdup_printf (ngettext ("Attach %u ribbon to %u", "Attach %u ribbons to %u", n), n,
                           m->applied[sel]);
  copy = g_memdup2 (ids, n * sizeof *ids);
  self->editing++;
  tress_history_begin_group (history, label);
  for (i = 0; i < n && error == NULL; i++)
    tress_cha_set_attachment (file, history, copy[i], m->applied[sel], &error);
  if (error != NULL)
    tress_history_cancel_group (history);
  else
    tress_history_end_group (history);
  self->editing--;
  report (self, error);
}

static void
on_byte_changed (GtkSpinButton *spin, TressFurInspector *self)
{
  guint n, k;
  g_autofree TressChaLineId *lines = NULL;
  g_autoptr (GError) error = NULL;
  TressChaFile *file = get_file (self->doc);
  TressHistory *history = get_history (self->doc);

  if (self->updating)
    return;
  lines = tress_cha_document_get_selected_lines (self->doc, &n);
  if (n == 0)
    return;
  self->editing++;
  for (k = 0; k < 3; k++)
    if (GTK_WIDGET (spin) == self->byte_spin[k])
      tress_cha_set_line_byte (file, history, lines, n, (TressChaLineByte)k,
                               (guint8)gtk_spin_button_get_value_as_int (spin), &error);
  if (GTK_WIDGET (spin) == self->section_spin)
    tress_cha_set_line_section (file, history, lines, n,
                                (guint)gtk_spin_button_get_value_as_int (spin), &error);
  self->editing--;
  for (k = 0; k < 3; k++)
    if (GTK_WIDGET (spin) == self->dir_spin[k])
      {
        double value = gtk_spin_button_get_value (spin);
        double step = pow (10, -(int)gtk_spin_button_get_digits (spin));

        /* Leaving the field rounds what it shows to its digits: that is no
         * edit (unless the lines differ: then every value typed is one). A
         * typed value sets this component alone, on every line. */
        if (!tress_fur_spin_is_mixed (GTK_WIDGET (spin))
            && fabs (value - self->shown_dir[k]) <= step / 2 * (1 + 1e-6))
          return;
        self->editing++;
        tress_cha_set_line_direction_component (file, history, lines, n, k, (float)value, &error);
        self->editing--;
      }
  report (self, error);
}

static void
on_quality_changed (GtkSpinButton *spin, TressFurInspector *self)
{
  const TressChaRibbonId *ids;
  guint n;
  g_autoptr (GError) error = NULL;

  if (self->updating)
    return;
  ids = tress_cha_document_get_selection (self->doc, &n);
  self->editing++;
  if (n > 0)
    tress_cha_set_quality (get_file (self->doc), get_history (self->doc), ids, n,
                           (guint32)gtk_spin_button_get_value_as_int (spin), &error);
  self->editing--;
  report (self, error);
}

static void
on_length_changed (GtkSpinButton *spin, TressFurInspector *self)
{
  const TressChaRibbonId *ids;
  guint n, i, mor = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (spin), "morality"));
  TressHistory *history = get_history (self->doc);
  g_autoptr (GError) error = NULL;
  g_autofree char *label = NULL;
  g_autofree TressChaRibbonId *copy = NULL;

  if (self->updating)
    return;
  ids = tress_cha_document_get_selection (self->doc, &n);
  copy = g_memdup2 (ids, n * sizeof *ids);
  label = g_strdup_printf (ngettext ("Set length of %u ribbon", "Set length of %u ribbons", n), n);
  self->editing++;
  tress_history_begin_group (history, label);
  for (i = 0; i < n && error == NULL; i++)
    tress_cha_set_length (get_file (self->doc), history, copy[i], mor,
                          (float)gtk_spin_button_get_value (spin), NULL, &error);
  tress_history_end_group (history);
  self->editing--;
  report (self, error);
}

static void
on_fix_clicked (GtkButton *button, TressFurInspector *self)
{
  int fix = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "fix-id"));
  const guint64 *offset = g_object_get_data (G_OBJECT (button), "fix-offset");
  guint material = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "fix-material"));
  g_autoptr (GError) error = NULL;

  /* The list (and this button) is rebuilt once the click is over: a button
   * destroyed inside its own click leaves the window's pointer grab behind. */
  self->editing++;
  tress_fur_fix_at (self->doc, (TressChaFix)fix,
                    material == 0 || material - 1 > G_MAXINT ? -1 : (int)(material - 1),
                    offset != NULL ? (gsize)*offset : G_MAXSIZE, NULL, NULL, &error);
  self->editing--;
  report (self, error);
}

static void
on_fix_all_done (guint n, const GError *error, gpointer user_data)
{
  TressFurInspector *self = user_data;
  g_autofree char *count = NULL;
  g_autofree char *text = NULL;

  if (error != NULL)
    return;
  count = tress_format_count (n);
  /* Translators: said after Fix All. */
  text = g_strdup_printf (ngettext ("Fixed %s problem", "Fixed %s problems", n), count);
  gtk_label_set_text (GTK_LABEL (self->fix_status), text);
  gtk_widget_set_visible (self->fix_status, TRUE);
  self->fix_status_pending = TRUE;
}

void
tress_fur_inspector_fix_all (TressFurInspector *self)
{
  g_autoptr (GError) error = NULL;

  /* (the inspector lives as long as the editor, whose job bar calls back) */
  self->editing++;
  tress_fur_fix_all (self->doc, on_fix_all_done, self, &error);
  self->editing--;
  report (self, error);
}

static void
on_fix_all_clicked (GtkButton *button, TressFurInspector *self)
{
  tress_fur_inspector_fix_all (self);
}

static void
on_name_set (GtkWidget *widget, TressFurInspector *self)
{
  g_autoptr (GError) error = NULL;

  tress_fur_names_set (
      self->names, (guint32)gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->name_part)),
      gtk_editable_get_text (GTK_EDITABLE (self->name_entry)), &error);
  report (self, error);
  refresh (self);
}

static void
on_retarget_clicked (GtkButton *button, TressFurInspector *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog = tress_fur_retarget_dialog_new (
      GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, self->doc, self->names);

  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_selection_changed (TressChaDocument *doc, gpointer origin, TressFurInspector *self)
{
  queue_refresh (self);
}

/* After every applied command (and load, revert), when the document's
 * problems describe the new model. */
static void
on_document_changed (TressDocument *doc, TressFurInspector *self)
{
  queue_refresh (self);
}

/* ---- construction --------------------------------------------------------- */

static void
tress_fur_inspector_dispose (GObject *object)
{
  TressFurInspector *self = TRESS_FUR_INSPECTOR (object);

  if (self->doc != NULL)
    g_signal_handlers_disconnect_by_data (self->doc, self);
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  g_clear_object (&self->doc);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRESS_TYPE_FUR_INSPECTOR);
  G_OBJECT_CLASS (tress_fur_inspector_parent_class)->dispose (object);
}

static void
tress_fur_inspector_finalize (GObject *object)
{
  TressFurInspector *self = TRESS_FUR_INSPECTOR (object);

  g_array_unref (self->triples);
  g_ptr_array_unref (self->tri_lines);
  G_OBJECT_CLASS (tress_fur_inspector_parent_class)->finalize (object);
}

static void
tress_fur_inspector_class_init (TressFurInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tress_fur_inspector_dispose;
  object_class->finalize = tress_fur_inspector_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "furinspector");

  g_type_ensure (TRESS_TYPE_WEIGHT_TRIANGLE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tress/Tress/tress-fur-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, scrolled);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, summary);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, edit_box);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, triangle);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, equal_button);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, attach_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, name_part);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, name_entry);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, section_spin);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, quality_spin);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, length_box);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, problem_expander);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, problem_title);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, problem_list);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, fix_all_button);
  gtk_widget_class_bind_template_child (widget_class, TressFurInspector, fix_status);
  gtk_widget_class_bind_template_callback (widget_class, on_problem_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_fix_all_clicked);
  {
    /* The rows of three, into their arrays. */
    static const struct
    {
      const char *id;
      gssize offset;
    } rows[] = {
      { "weight_spin_1", G_STRUCT_OFFSET (TressFurInspector, weight_spin[0]) },
      { "weight_spin_2", G_STRUCT_OFFSET (TressFurInspector, weight_spin[1]) },
      { "weight_spin_3", G_STRUCT_OFFSET (TressFurInspector, weight_spin[2]) },
      { "ref_dropdown_1", G_STRUCT_OFFSET (TressFurInspector, ref_dropdown[0]) },
      { "ref_dropdown_2", G_STRUCT_OFFSET (TressFurInspector, ref_dropdown[1]) },
      { "ref_dropdown_3", G_STRUCT_OFFSET (TressFurInspector, ref_dropdown[2]) },
      { "ambient_spin", G_STRUCT_OFFSET (TressFurInspector, byte_spin[0]) },
      { "colour_spin_1", G_STRUCT_OFFSET (TressFurInspector, byte_spin[1]) },
      { "colour_spin_2", G_STRUCT_OFFSET (TressFurInspector, byte_spin[2]) },
      { "dir_spin_x", G_STRUCT_OFFSET (TressFurInspector, dir_spin[0]) },
      { "dir_spin_y", G_STRUCT_OFFSET (TressFurInspector, dir_spin[1]) },
      { "dir_spin_z", G_STRUCT_OFFSET (TressFurInspector, dir_spin[2]) },
    };

    for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
      gtk_widget_class_bind_template_child_full (widget_class, rows[i].id, FALSE, rows[i].offset);
  }
  gtk_widget_class_bind_template_callback (widget_class, on_weight_spin_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_points_moved);
  gtk_widget_class_bind_template_callback (widget_class, on_equal_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_ref_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_attach_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_name_set);
  gtk_widget_class_bind_template_callback (widget_class, on_retarget_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_byte_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_quality_changed);
}

static void
tress_fur_inspector_init (TressFurInspector *self)
{
  self->triples = g_array_new (FALSE, FALSE, sizeof (Triple));
  self->tri_lines = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  self->material = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
tress_fur_inspector_new (TressChaDocument *doc, TressFurNames *names)
{
  TressFurInspector *self = g_object_new (TRESS_TYPE_FUR_INSPECTOR, NULL);

  self->doc = g_object_ref (doc);
  self->names = names;
  g_signal_connect (doc, "selection-changed", G_CALLBACK (on_selection_changed), self);
  g_signal_connect (doc, "changed", G_CALLBACK (on_document_changed), self);
  refresh (self);
  return GTK_WIDGET (self);
}

TressWeightTriangle *
tress_fur_inspector_get_triangle (TressFurInspector *self)
{
  return TRESS_WEIGHT_TRIANGLE (self->triangle);
}

const char *
tress_fur_inspector_get_summary (TressFurInspector *self)
{
  return gtk_label_get_text (GTK_LABEL (self->summary));
}

void
tress_fur_inspector_show_problems (TressFurInspector *self)
{
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scrolled));
  GtkWidget *first = gtk_widget_get_first_child (self->problem_list);

  gtk_expander_set_expanded (GTK_EXPANDER (self->problem_expander), TRUE);
  gtk_adjustment_set_value (adj, gtk_adjustment_get_lower (adj));
  if (first != NULL)
    gtk_widget_grab_focus (first);
}

GtkListBox *
tress_fur_inspector_get_problem_list (TressFurInspector *self)
{
  return GTK_LIST_BOX (self->problem_list);
}

gboolean
tress_fur_inspector_get_problems_shown (TressFurInspector *self)
{
  return gtk_expander_get_expanded (GTK_EXPANDER (self->problem_expander));
}

void
tress_fur_inspector_names_changed (TressFurInspector *self)
{
  refresh (self);
}
