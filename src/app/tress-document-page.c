/* tress-document-page.c: one open document in the window's notebook
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-document-page.h"

#include <glib/gi18n.h>

#include "tress-editor.h"
#include "tress-info-view.h"

struct _TressDocumentPage
{
  GtkWidget parent_instance;

  TressDocument *document;
  GtkWidget *editor;

  GtkWidget *tab;
  GtkLabel *tab_label;
  char *tab_detail; /* what tells the tab from another of the same name, or NULL */
  GtkWidget *tab_close;

  /* The file on disk: watched, and a banner when another program changed it. */
  GFileMonitor *monitor;
  guint check_id;
  GtkWidget *banner;
  GtkLabel *banner_label;
  GtkWidget *reload_button;
  gboolean disk_changed;
  gboolean disk_missing; /* changed by being deleted or moved away */

  /* The file's problem count, for editors that do not show it themselves;
   * closed by the user, it stays closed until the editor is built again. */
  GtkWidget *problems_bar;
  GtkLabel *problems_label;
  gboolean problems_dismissed;
  GtkWidget *problems_window;
};

G_DEFINE_FINAL_TYPE (TressDocumentPage, tress_document_page, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_DISK_CHANGED,
  N_PROPS
};

enum
{
  CLOSE_REQUESTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void update_tab (TressDocumentPage *self);
static void update_problems (TressDocumentPage *self);

char *
tress_document_page_dup_tab_title (TressDocumentPage *self)
{
  const char *title;

  g_return_val_if_fail (TRESS_IS_DOCUMENT_PAGE (self), NULL);

  title = tress_document_get_title (self->document);
  if (title == NULL)
    title = _ ("Untitled");
  if (self->tab_detail != NULL)
    {
      /* Translators: a tab's title and the folder its file is in, "demo.cha — fur" */
      g_autofree char *named = g_strdup_printf (_ ("%s — %s"), title, self->tab_detail);

      if (tress_document_get_modified (self->document))
        return g_strdup_printf (_ ("• %s"), named);
      return g_steal_pointer (&named);
    }
  if (tress_document_get_modified (self->document))
    /* Translators: the title of a document with unsaved changes */
    return g_strdup_printf (_ ("• %s"), title);
  return g_strdup (title);
}

void
tress_document_page_set_tab_detail (TressDocumentPage *self, const char *detail)
{
  g_return_if_fail (TRESS_IS_DOCUMENT_PAGE (self));
  if (g_strcmp0 (self->tab_detail, detail) == 0)
    return;
  g_free (self->tab_detail);
  self->tab_detail = g_strdup (detail);
  update_tab (self);
}

static void
update_tab (TressDocumentPage *self)
{
  g_autofree char *text = tress_document_page_dup_tab_title (self);
  GFile *file = tress_document_get_file (self->document);
  g_autofree char *tooltip = file != NULL ? g_file_get_parse_name (file) : NULL;

  gtk_label_set_text (self->tab_label, text);
  /* A tab never gets narrower than its name (up to 48 characters): with many
   * files open the tab row scrolls rather than cutting names. */
  gtk_label_set_width_chars (self->tab_label, MIN ((int)g_utf8_strlen (text, -1), 48));
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
  gtk_widget_set_vexpand (self->editor, TRUE);
  gtk_widget_insert_after (self->editor, GTK_WIDGET (self), self->problems_bar);
  self->problems_dismissed = FALSE;
  update_problems (self);
}

/* ---- the file's problems ------------------------------------------------- */

static void
update_problems (TressDocumentPage *self)
{
  GPtrArray *problems = tress_document_get_problems (self->document);
  guint n_errors = problems != NULL ? tress_problem_list_count (problems, TRESS_SEVERITY_ERROR) : 0;
  guint n_warnings = problems != NULL
                         ? tress_problem_list_count (problems, TRESS_SEVERITY_WARNING) - n_errors
                         : 0;
  gboolean show = n_errors + n_warnings > 0 && !self->problems_dismissed && self->editor != NULL
                  && !tress_editor_get_shows_problems (self->editor);

  if (show)
    {
      g_autofree char *errors
          = g_strdup_printf (ngettext ("%u error", "%u errors", n_errors), n_errors);
      g_autofree char *warnings
          = g_strdup_printf (ngettext ("%u warning", "%u warnings", n_warnings), n_warnings);
      g_autofree char *text = NULL;

      if (n_errors > 0 && n_warnings > 0)
        /* Translators: "This file has 2 errors and 45 warnings." */
        text = g_strdup_printf (_ ("This file has %s and %s."), errors, warnings);
      else
        /* Translators: "This file has 45 warnings." */
        text = g_strdup_printf (_ ("This file has %s."), n_errors > 0 ? errors : warnings);
      gtk_label_set_text (self->problems_label, text);
    }
  gtk_widget_set_visible (self->problems_bar, show);
}

static void
on_problems_closed (GtkButton *button, TressDocumentPage *self)
{
  self->problems_dismissed = TRUE;
  update_problems (self);
}

/* The list, in a window of its own beside the editor (the info page's). */
static void
on_problems_show (GtkButton *button, TressDocumentPage *self)
{
  GtkWidget *list;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *title = NULL;

  if (self->problems_window != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->problems_window));
      return;
    }
  /* Translators: the title of the window listing a file's problems */
  title = g_strdup_printf (_ ("Problems in %s"), tress_document_get_title (self->document));
  self->problems_window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (self->problems_window), title);
  gtk_window_set_default_size (GTK_WINDOW (self->problems_window), 640, 420);
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (self->problems_window), GTK_WINDOW (root));
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self->problems_window), TRUE);
  list = tress_info_view_new (self->document);
  tress_info_view_set_problems_only (TRESS_INFO_VIEW (list), TRUE);
  gtk_window_set_child (GTK_WINDOW (self->problems_window), list);
  g_object_add_weak_pointer (G_OBJECT (self->problems_window), (gpointer *)&self->problems_window);
  gtk_window_present (GTK_WINDOW (self->problems_window));
}

GtkWidget *
tress_document_page_get_problems_bar (TressDocumentPage *self)
{
  g_return_val_if_fail (TRESS_IS_DOCUMENT_PAGE (self), NULL);
  return self->problems_bar;
}

GtkWidget *
tress_document_page_get_problems_window (TressDocumentPage *self)
{
  g_return_val_if_fail (TRESS_IS_DOCUMENT_PAGE (self), NULL);
  return self->problems_window;
}

/* ---- the file on disk ---------------------------------------------------- */

void
tress_document_page_check_disk (TressDocumentPage *self)
{
  GFile *file;
  gboolean changed = FALSE, exists = TRUE;

  g_return_if_fail (TRESS_IS_DOCUMENT_PAGE (self));

  g_clear_handle_id (&self->check_id, g_source_remove);
  file = tress_document_get_file (self->document);
  /* A running save changes the file itself; it is checked once the save ends. */
  if (file != NULL && !tress_document_get_saving (self->document))
    {
      changed = tress_document_changed_on_disk (self->document);
      exists = !changed || g_file_query_exists (file, NULL);
    }
  if (changed)
    {
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *text = NULL;

      if (!exists)
        text = g_strdup_printf (_ ("“%s” was deleted or moved on disk. Saving writes it again."),
                                name);
      else if (tress_document_get_modified (self->document))
        text = g_strdup_printf (_ ("“%s” changed on disk. Reload it to see the changes, dropping "
                                   "yours, or save to replace them."),
                                name);
      else
        text = g_strdup_printf (_ ("“%s” changed on disk."), name);
      gtk_label_set_text (self->banner_label, text);
      gtk_widget_set_visible (self->reload_button, exists);
    }
  gtk_widget_set_visible (self->banner, changed);
  if (changed != self->disk_changed || (changed && !exists) != self->disk_missing)
    {
      self->disk_changed = changed;
      self->disk_missing = changed && !exists;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DISK_CHANGED]);
    }
}

gboolean
tress_document_page_get_disk_changed (TressDocumentPage *self)
{
  g_return_val_if_fail (TRESS_IS_DOCUMENT_PAGE (self), FALSE);
  return self->disk_changed;
}

gboolean
tress_document_page_get_can_reload (TressDocumentPage *self)
{
  g_return_val_if_fail (TRESS_IS_DOCUMENT_PAGE (self), FALSE);
  return self->disk_changed && !self->disk_missing;
}

static gboolean
check_disk_idle (gpointer data)
{
  TressDocumentPage *self = data;

  self->check_id = 0;
  tress_document_page_check_disk (self);
  return G_SOURCE_REMOVE;
}

/* Events come in bursts (a replace is a create, a rename, attribute changes):
 * one check after the burst. */
static void
on_file_changed (GFileMonitor *monitor, GFile *file, GFile *other, GFileMonitorEvent event,
                 TressDocumentPage *self)
{
  if (self->check_id == 0)
    self->check_id = g_timeout_add (100, check_disk_idle, self);
}

static void
watch_file (TressDocumentPage *self)
{
  GFile *file = tress_document_get_file (self->document);

  if (self->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      g_file_monitor_cancel (self->monitor);
      g_clear_object (&self->monitor);
    }
  if (file != NULL)
    self->monitor = g_file_monitor_file (file, G_FILE_MONITOR_WATCH_MOVES, NULL, NULL);
  if (self->monitor != NULL)
    g_signal_connect (self->monitor, "changed", G_CALLBACK (on_file_changed), self);
}

static void
on_document_file (TressDocument *doc, GParamSpec *pspec, TressDocumentPage *self)
{
  watch_file (self);
  tress_document_page_check_disk (self);
}

/* Saved, reverted, or edited (the banner's advice depends on unsaved edits). */
static void
on_document_state (TressDocument *doc, GParamSpec *pspec, TressDocumentPage *self)
{
  if (self->disk_changed || gtk_widget_get_visible (self->banner))
    tress_document_page_check_disk (self);
}

static void
on_document_changed (TressDocument *doc, TressDocumentPage *self)
{
  on_document_state (doc, NULL, self);
  update_problems (self);
}

static void
on_document_saving (TressDocument *doc, GParamSpec *pspec, TressDocumentPage *self)
{
  if (!tress_document_get_saving (doc))
    tress_document_page_check_disk (self);
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
  g_signal_connect_object (self->document, "notify::file", G_CALLBACK (on_document_file), self, 0);
  g_signal_connect_object (self->document, "notify::modified", G_CALLBACK (on_document_state), self,
                           0);
  g_signal_connect_object (self->document, "changed", G_CALLBACK (on_document_changed), self, 0);
  g_signal_connect_object (self->document, "notify::saving", G_CALLBACK (on_document_saving), self,
                           0);
  update_tab (self);
  tress_document_page_rebuild_editor (self);
  watch_file (self);
}

static void
tress_document_page_dispose (GObject *object)
{
  TressDocumentPage *self = TRESS_DOCUMENT_PAGE (object);

  g_clear_handle_id (&self->check_id, g_source_remove);
  if (self->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      g_file_monitor_cancel (self->monitor);
      g_clear_object (&self->monitor);
    }
  g_clear_pointer (&self->editor, gtk_widget_unparent);
  g_clear_pointer (&self->banner, gtk_widget_unparent);
  g_clear_pointer (&self->problems_bar, gtk_widget_unparent);
  if (self->problems_window != NULL)
    gtk_window_destroy (GTK_WINDOW (self->problems_window));
  g_clear_object (&self->tab);
  G_OBJECT_CLASS (tress_document_page_parent_class)->dispose (object);
}

static void
tress_document_page_finalize (GObject *object)
{
  TressDocumentPage *self = TRESS_DOCUMENT_PAGE (object);

  g_clear_object (&self->document);
  g_free (self->tab_detail);
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
    case PROP_DISK_CHANGED:
      g_value_set_boolean (value, self->disk_changed);
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
  /* The file on disk is not what the document read or last saved. */
  properties[PROP_DISK_CHANGED]
      = g_param_spec_boolean ("disk-changed", NULL, NULL, FALSE,
                              G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CLOSE_REQUESTED] = g_signal_new ("close-requested", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tress-document-page");
}

static void
tress_document_page_init (TressDocumentPage *self)
{
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");

  self->tab = g_object_ref_sink (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6));
  self->tab_label = GTK_LABEL (label);
  /* The file's name whole where the tab row has room (its start tells
   * files apart; a cut, when the row is full, comes at the end). */
  gtk_label_set_ellipsize (self->tab_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (self->tab_label, 60);
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

  gtk_orientable_set_orientation (
      GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))), GTK_ORIENTATION_VERTICAL);
  self->banner = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (self->banner, "tress-disk-banner");
  self->banner_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->banner_label, TRUE);
  gtk_label_set_xalign (self->banner_label, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->banner_label), TRUE);
  gtk_box_append (GTK_BOX (self->banner), GTK_WIDGET (self->banner_label));
  self->reload_button = gtk_button_new_with_mnemonic (_ ("_Reload"));
  gtk_widget_set_tooltip_text (self->reload_button, _ ("Read the file again from disk"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->reload_button), "win.revert");
  gtk_widget_set_valign (self->reload_button, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (self->banner), self->reload_button);
  gtk_widget_set_visible (self->banner, FALSE);
  gtk_widget_set_parent (self->banner, GTK_WIDGET (self));

  self->problems_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (self->problems_bar, "tress-problems-banner");
  self->problems_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->problems_label, 0);
  gtk_label_set_ellipsize (self->problems_label, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->problems_label), TRUE);
  gtk_box_append (GTK_BOX (self->problems_bar), GTK_WIDGET (self->problems_label));
  {
    GtkWidget *show = gtk_button_new_with_mnemonic (_ ("Show _Problems"));
    GtkWidget *hide = gtk_button_new_from_icon_name ("window-close-symbolic");

    gtk_widget_set_valign (show, GTK_ALIGN_CENTER);
    g_signal_connect (show, "clicked", G_CALLBACK (on_problems_show), self);
    gtk_box_append (GTK_BOX (self->problems_bar), show);
    gtk_widget_add_css_class (hide, "flat");
    gtk_widget_set_valign (hide, GTK_ALIGN_CENTER);
    gtk_widget_set_tooltip_text (hide, _ ("Hide"));
    gtk_accessible_update_property (GTK_ACCESSIBLE (hide), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    _ ("Hide"), -1);
    g_signal_connect (hide, "clicked", G_CALLBACK (on_problems_closed), self);
    gtk_box_append (GTK_BOX (self->problems_bar), hide);
  }
  gtk_widget_set_visible (self->problems_bar, FALSE);
  gtk_widget_insert_after (self->problems_bar, GTK_WIDGET (self), self->banner);
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
