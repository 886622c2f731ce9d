/* tress-document-page.c: one open document in the window's notebook
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-document-page.h"

#include <glib/gi18n.h>

#include "tress-editor.h"

struct _TressDocumentPage
{
  GtkWidget parent_instance;

  TressDocument *document;
  GtkWidget *editor;

  GtkWidget *tab;
  GtkLabel *tab_label;
  GtkWidget *tab_close;
};

G_DEFINE_FINAL_TYPE (TressDocumentPage, tress_document_page, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

enum
{
  CLOSE_REQUESTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

char *
tress_document_page_dup_tab_title (TressDocumentPage *self)
{
  const char *title;

  g_return_val_if_fail (TRESS_IS_DOCUMENT_PAGE (self), NULL);

  title = tress_document_get_title (self->document);
  if (title == NULL)
    title = _ ("Untitled");
  if (tress_document_get_modified (self->document))
    /* Translators: the title of a document with unsaved changes */
    return g_strdup_printf (_ ("• %s"), title);
  return g_strdup (title);
}

static void
update_tab (TressDocumentPage *self)
{
  g_autofree char *text = tress_document_page_dup_tab_title (self);
  GFile *file = tress_document_get_file (self->document);
  g_autofree char *tooltip = file != NULL ? g_file_get_parse_name (file) : NULL;

  gtk_label_set_text (self->tab_label, text);
  gtk_widget_set_tooltip_text (self->tab, tooltip);
}

static void
on_document_notify (TressDocument *doc, GParamSpec *pspec, TressDocumentPage *self)
{
  update_tab (self);
}

static void
on_close_clicked (GtkButton *button, TressDocumentPage *self)
{
  g_signal_emit (self, signals[CLOSE_REQUESTED], 0);
}

void
tress_document_page_rebuild_editor (TressDocumentPage *self)
{
  g_return_if_fail (TRESS_IS_DOCUMENT_PAGE (self));

  if (self->editor != NULL)
    gtk_widget_unparent (self->editor);
  self->editor = tress_editor_create (self->document);
  gtk_widget_set_parent (self->editor, GTK_WIDGET (self));
}

static void
tress_document_page_constructed (GObject *object)
{
  TressDocumentPage *self = TRESS_DOCUMENT_PAGE (object);

  G_OBJECT_CLASS (tress_document_page_parent_class)->constructed (object);

  g_return_if_fail (self->document != NULL);
  g_signal_connect_object (self->document, "notify::title", G_CALLBACK (on_document_notify), self,
                           0);
  g_signal_connect_object (self->document, "notify::modified", G_CALLBACK (on_document_notify),
                           self, 0);
  g_signal_connect_object (self->document, "notify::file", G_CALLBACK (on_document_notify), self,
                           0);
  update_tab (self);
  tress_document_page_rebuild_editor (self);
}

static void
tress_document_page_dispose (GObject *object)
{
  TressDocumentPage *self = TRESS_DOCUMENT_PAGE (object);

  g_clear_pointer (&self->editor, gtk_widget_unparent);
  g_clear_object (&self->tab);
  G_OBJECT_CLASS (tress_document_page_parent_class)->dispose (object);
}

static void
tress_document_page_finalize (GObject *object)
{
  TressDocumentPage *self = TRESS_DOCUMENT_PAGE (object);

  g_clear_object (&self->document);
  G_OBJECT_CLASS (tress_document_page_parent_class)->finalize (object);
}

static void
tress_document_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TressDocumentPage *self = TRESS_DOCUMENT_PAGE (object);

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
tress_document_page_set_property (GObject *object, guint prop_id, const GValue *value,
                                  GParamSpec *pspec)
{
  TressDocumentPage *self = TRESS_DOCUMENT_PAGE (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      self->document = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_document_page_class_init (TressDocumentPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tress_document_page_constructed;
  object_class->dispose = tress_document_page_dispose;
  object_class->finalize = tress_document_page_finalize;
  object_class->get_property = tress_document_page_get_property;
  object_class->set_property = tress_document_page_set_property;

  properties[PROP_DOCUMENT]
      = g_param_spec_object ("document", NULL, NULL, TRESS_TYPE_DOCUMENT,
                             G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CLOSE_REQUESTED] = g_signal_new ("close-requested", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tress-document-page");
}

static void
tress_document_page_init (TressDocumentPage *self)
{
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");

  self->tab = g_object_ref_sink (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6));
  self->tab_label = GTK_LABEL (label);
  gtk_label_set_ellipsize (self->tab_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (self->tab_label, 28);
  gtk_widget_set_hexpand (label, TRUE);
  self->tab_close = close;
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_add_css_class (close, "circular");
  gtk_widget_add_css_class (close, "tress-tab-close");
  gtk_widget_set_tooltip_text (close, _ ("Close Document"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (close), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Close Document"), -1);
  g_signal_connect (close, "clicked", G_CALLBACK (on_close_clicked), self);
  gtk_box_append (GTK_BOX (self->tab), label);
  gtk_box_append (GTK_BOX (self->tab), close);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
tress_document_page_new (TressDocument *doc)
{
  g_return_val_if_fail (TRESS_IS_DOCUMENT (doc), NULL);
  return g_object_new (TRESS_TYPE_DOCUMENT_PAGE, "document", doc, NULL);
}

TressDocument *
tress_document_page_get_document (TressDocumentPage *self)
{
  g_return_val_if_fail (TRESS_IS_DOCUMENT_PAGE (self), NULL);
  return self->document;
}

GtkWidget *
tress_document_page_get_editor (TressDocumentPage *self)
{
  g_return_val_if_fail (TRESS_IS_DOCUMENT_PAGE (self), NULL);
  return self->editor;
}

GtkWidget *
tress_document_page_get_tab (TressDocumentPage *self)
{
  g_return_val_if_fail (TRESS_IS_DOCUMENT_PAGE (self), NULL);
  return self->tab;
}
