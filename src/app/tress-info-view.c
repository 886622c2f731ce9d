/* tress-info-view.c: the generic document page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-info-view.h"
#include "tress-editor.h"

#include <glib/gi18n.h>

struct _TressInfoView
{
  GtkWidget parent_instance;

  TressDocument *document;
  gulong changed_id;

  GtkWidget *scroller;
  GtkLabel *title_label;
  GtkLabel *format_label;
  GtkLabel *describe_label;
  GtkLabel *problems_label;
  GtkListBox *problems_list;
};

G_DEFINE_FINAL_TYPE (TressInfoView, tress_info_view, GTK_TYPE_WIDGET)

/* A list of thousands of rows helps nobody and takes long to build. */
#define MAX_PROBLEM_ROWS 200

enum
{
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
severity_icon (TressSeverity severity)
{
  switch (severity)
    {
    case TRESS_SEVERITY_ERROR:
      return "dialog-error-symbolic";
    case TRESS_SEVERITY_WARNING:
      return "dialog-warning-symbolic";
    case TRESS_SEVERITY_INFO:
    default:
      return "dialog-information-symbolic";
    }
}

static const char *
severity_label (TressSeverity severity)
{
  switch (severity)
    {
    case TRESS_SEVERITY_ERROR:
      return _ ("Error");
    case TRESS_SEVERITY_WARNING:
      return _ ("Warning");
    case TRESS_SEVERITY_INFO:
    default:
      return _ ("Note");
    }
}

/* "radeon/material 0 · offset 0x1234 (4660)" */
static char *
problem_place (const TressProblem *problem)
{
  GString *place = g_string_new (NULL);

  if (problem->location != NULL && problem->location[0] != '\0')
    g_string_append (place, problem->location);
  if (problem->offset != G_MAXSIZE)
    {
      if (place->len > 0)
        g_string_append (place, " · ");
      /* Translators: a byte offset in a file, in hexadecimal and decimal */
      g_string_append_printf (place, _ ("offset 0x%llX (%llu)"),
                              (unsigned long long)problem->offset,
                              (unsigned long long)problem->offset);
    }
  return g_string_free (place, FALSE);
}

static GtkWidget *
problem_row_new (const TressProblem *problem)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *icon = gtk_image_new_from_icon_name (severity_icon (problem->severity));
  GtkWidget *message = gtk_label_new (problem->message);
  g_autofree char *place_text = problem_place (problem);
  GtkWidget *place = gtk_label_new (place_text);

  gtk_widget_set_tooltip_text (icon, severity_label (problem->severity));
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_widget_add_css_class (row, problem->severity == TRESS_SEVERITY_ERROR     ? "error"
                                 : problem->severity == TRESS_SEVERITY_WARNING ? "warning"
                                                                               : "info");
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);

  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_selectable (GTK_LABEL (message), TRUE);
  gtk_label_set_xalign (GTK_LABEL (place), 0);
  gtk_label_set_wrap (GTK_LABEL (place), TRUE);
  gtk_label_set_selectable (GTK_LABEL (place), TRUE);
  gtk_widget_add_css_class (place, "dim-label");
  gtk_widget_add_css_class (place, "caption");

  gtk_box_append (GTK_BOX (text), message);
  gtk_box_append (GTK_BOX (text), place);
  if (problem->fix != NULL)
    {
      g_autofree char *fix_text = g_strdup_printf (_ ("Fix: %s"), problem->fix);
      GtkWidget *fix = gtk_label_new (fix_text);

      gtk_label_set_xalign (GTK_LABEL (fix), 0);
      gtk_label_set_wrap (GTK_LABEL (fix), TRUE);
      gtk_widget_add_css_class (fix, "caption");
      gtk_box_append (GTK_BOX (text), fix);
    }
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), text);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  g_object_set_data_full (G_OBJECT (row), "tress-text",
                          g_strdup_printf ("%s: %s (%s)", severity_label (problem->severity),
                                           problem->message, place_text),
                          g_free);
  return row;
}

static void
tress_info_view_refresh (TressInfoView *self)
{
  const TressFormat *format;
  gpointer model;
  GPtrArray *problems;
  g_autoptr (GPtrArray) shown = NULL;
  guint total;
  GtkWidget *child;
  g_autofree char *description = NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->problems_list))) != NULL)
    gtk_list_box_remove (self->problems_list, child);

  if (self->document == NULL)
    {
      gtk_label_set_text (self->title_label, "");
      gtk_label_set_text (self->format_label, "");
      gtk_label_set_text (self->describe_label, "");
      gtk_label_set_text (self->problems_label, "");
      return;
    }

  format = tress_document_get_format (self->document);
  model = tress_document_get_model (self->document);
  gtk_label_set_text (self->title_label, tress_document_get_title (self->document));
  gtk_label_set_text (self->format_label, format != NULL && format->display_name != NULL
                                              ? _ (format->display_name)
                                              : "");
  if (format != NULL && format->describe != NULL && model != NULL)
    description = format->describe (model);
  gtk_label_set_text (self->describe_label, description != NULL ? g_strchomp (description) : "");

  problems = tress_document_get_problems (self->document);
  total = tress_problem_list_count (problems, TRESS_SEVERITY_INFO);
  if (total == 0)
    {
      gtk_label_set_text (self->problems_label, _ ("No problems found"));
      gtk_widget_set_visible (GTK_WIDGET (self->problems_list), FALSE);
      return;
    }

  {
    guint n_errors = tress_problem_list_count (problems, TRESS_SEVERITY_ERROR);
    g_autofree char *heading = NULL;

    g_autofree char *problems_text
        = g_strdup_printf (ngettext ("%u problem", "%u problems", total), total);

    if (n_errors > 0)
      {
        g_autofree char *errors_text
            = g_strdup_printf (ngettext ("%u error", "%u errors", n_errors), n_errors);

        /* Translators: "3 problems, 1 error" */
        heading = g_strdup_printf (_ ("%s, %s"), problems_text, errors_text);
      }
    else
      heading = g_steal_pointer (&problems_text);
    gtk_label_set_text (self->problems_label, heading);
  }
  gtk_widget_set_visible (GTK_WIDGET (self->problems_list), TRUE);
  /* A bounded number of each kind, then "and 8,412 more of this kind". */
  shown = tress_problem_list_aggregated_copy (problems);
  for (guint i = 0; i < shown->len && i < MAX_PROBLEM_ROWS; i++)
    gtk_list_box_append (self->problems_list, problem_row_new (g_ptr_array_index (shown, i)));
  if (shown->len > MAX_PROBLEM_ROWS)
    {
      guint more = 0;
      g_autofree char *text = NULL;
      GtkWidget *label, *row;

      for (guint i = MAX_PROBLEM_ROWS; i < shown->len; i++)
        {
          const TressProblem *p = g_ptr_array_index (shown, i);

          more += p->n_more > 0 ? p->n_more : 1;
        }
      text = g_strdup_printf (
          ngettext ("%u more problem is not shown (tress-cli validate lists all)",
                    "%u more problems are not shown (tress-cli validate lists all)", more),
          more);
      label = gtk_label_new (text);
      row = gtk_list_box_row_new ();

      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_set_margin_top (label, 8);
      gtk_widget_set_margin_bottom (label, 8);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      g_object_set_data_full (G_OBJECT (row), "tress-text", g_strdup (text), g_free);
      gtk_list_box_append (self->problems_list, row);
    }
}

static void
on_document_changed (TressDocument *doc, TressInfoView *self)
{
  tress_info_view_refresh (self);
}

static void
tress_info_view_set_document (TressInfoView *self, TressDocument *doc)
{
  if (self->document == doc)
    return;
  if (self->document != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->document);
      g_clear_object (&self->document);
    }
  if (doc != NULL)
    {
      self->document = g_object_ref (doc);
      self->changed_id = g_signal_connect (doc, "changed", G_CALLBACK (on_document_changed), self);
    }
  tress_info_view_refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

static void
tress_info_view_dispose (GObject *object)
{
  TressInfoView *self = TRESS_INFO_VIEW (object);

  if (self->document != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->document);
      g_clear_object (&self->document);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), TRESS_TYPE_INFO_VIEW);
  G_OBJECT_CLASS (tress_info_view_parent_class)->dispose (object);
}

static void
tress_info_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TressInfoView *self = TRESS_INFO_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_info_view_set_property (GObject *object, guint prop_id, const GValue *value,
                              GParamSpec *pspec)
{
  TressInfoView *self = TRESS_INFO_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      tress_info_view_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_info_view_class_init (TressInfoViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tress_info_view_dispose;
  object_class->get_property = tress_info_view_get_property;
  object_class->set_property = tress_info_view_set_property;

  properties[PROP_DOCUMENT]
      = g_param_spec_object ("document", NULL, NULL, TRESS_TYPE_DOCUMENT,
                             G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tress/Tress/tress-info-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TressInfoView, scroller);
  gtk_widget_class_bind_template_child (widget_class, TressInfoView, title_label);
  gtk_widget_class_bind_template_child (widget_class, TressInfoView, format_label);
  gtk_widget_class_bind_template_child (widget_class, TressInfoView, describe_label);
  gtk_widget_class_bind_template_child (widget_class, TressInfoView, problems_label);
  gtk_widget_class_bind_template_child (widget_class, TressInfoView, problems_list);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tress-info-view");
}

static void
tress_info_view_init (TressInfoView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tress_editor_set_shows_problems (GTK_WIDGET (self));
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
tress_info_view_new (TressDocument *doc)
{
  return g_object_new (TRESS_TYPE_INFO_VIEW, "document", doc, NULL);
}

void
tress_info_view_set_problems_only (TressInfoView *self, gboolean problems_only)
{
  g_return_if_fail (TRESS_IS_INFO_VIEW (self));
  gtk_widget_set_visible (GTK_WIDGET (self->format_label), !problems_only);
  gtk_widget_set_visible (GTK_WIDGET (self->describe_label), !problems_only);
}

TressDocument *
tress_info_view_get_document (TressInfoView *self)
{
  g_return_val_if_fail (TRESS_IS_INFO_VIEW (self), NULL);
  return self->document;
}

char *
tress_info_view_dup_text (TressInfoView *self)
{
  GString *text = g_string_new (NULL);
  GtkWidget *row;

  g_return_val_if_fail (TRESS_IS_INFO_VIEW (self), NULL);

  g_string_append_printf (text, "%s\n%s\n%s\n%s\n", gtk_label_get_text (self->title_label),
                          gtk_label_get_text (self->format_label),
                          gtk_label_get_text (self->describe_label),
                          gtk_label_get_text (self->problems_label));
  for (row = gtk_widget_get_first_child (GTK_WIDGET (self->problems_list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      const char *line = g_object_get_data (G_OBJECT (row), "tress-text");

      if (line != NULL)
        g_string_append_printf (text, "%s\n", line);
    }
  return g_string_free (text, FALSE);
}
