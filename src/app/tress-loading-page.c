/* tress-loading-page.c: files being opened, how far each is, and Cancel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-loading-page.h"

#include <glib/gi18n.h>

/* How often the rows read their progress. */
#define UPDATE_MS 100

struct _TressLoadingPage
{
  GtkWidget parent_instance;

  GtkWidget *scroller;
  GtkSpinner *spinner;
  GtkLabel *heading;
  GtkListBox *loads;

  GPtrArray *rows; /* LoadRow */
  guint update_id;
};

G_DEFINE_FINAL_TYPE (TressLoadingPage, tress_loading_page, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_CANCELLED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct
{
  TressLoadingPage *page; /* weak */
  TressProgress *progress;
  GtkWidget *row;
  GtkLabel *name;
  GtkLabel *detail;
  GtkProgressBar *bar;
  char *text; /* the detail as last shown */
} LoadRow;

static void
load_row_free (LoadRow *row)
{
  tress_progress_unref (row->progress);
  g_free (row->text);
  g_free (row);
}

static char *
format_amount (guint64 n, TressProgressUnit unit)
{
  if (unit == TRESS_PROGRESS_BYTES)
    return g_format_size (n);
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
}

/* "Reading: 12.3 MB of 54.0 MB", "Reading animations: 31", … */
static char *
describe (TressProgress *progress, double *fraction)
{
  const char *phase = NULL;
  guint64 done = 0, total = 0;
  TressProgressUnit unit = TRESS_PROGRESS_BYTES;
  g_autofree char *d = NULL, *t = NULL;

  tress_progress_get (progress, &phase, &done, &total, &unit);
  *fraction = total > 0 ? MIN (1.0, (double)done / (double)total) : -1;
  if (phase == NULL)
    return g_strdup (_ ("Starting"));
  d = format_amount (done, unit);
  if (total == 0)
    /* Translators: a phase of opening a file, and how much of it is done: "Reading animations: 31"
     */
    return g_strdup_printf (_ ("%s: %s"), _ (phase), d);
  t = format_amount (total, unit);
  /* Translators: "Reading: 12.3 MB of 54.0 MB" */
  return g_strdup_printf (_ ("%s: %s of %s"), _ (phase), d, t);
}

static void
update_row (LoadRow *row)
{
  double fraction;
  g_autofree char *text = describe (row->progress, &fraction);

  if (g_strcmp0 (text, row->text) != 0)
    {
      gtk_label_set_text (row->detail, text);
      g_free (row->text);
      row->text = g_steal_pointer (&text);
    }
  if (fraction >= 0)
    gtk_progress_bar_set_fraction (row->bar, fraction);
  else
    gtk_progress_bar_pulse (row->bar);
}

static gboolean
on_update (gpointer user_data)
{
  TressLoadingPage *self = user_data;

  for (guint i = 0; i < self->rows->len; i++)
    update_row (g_ptr_array_index (self->rows, i));
  return G_SOURCE_CONTINUE;
}

static void
update_heading (TressLoadingPage *self)
{
  guint n = self->rows->len;

  /* The last one gone: the page fades out as it was. */
  gtk_widget_set_visible (GTK_WIDGET (self->loads), n > 0);
  if (n == 0)
    ;
  else if (n == 1)
    {
      LoadRow *row = g_ptr_array_index (self->rows, 0);
      g_autofree char *heading
          = g_strdup_printf (_ ("Opening “%s”…"), gtk_label_get_text (row->name));

      gtk_label_set_text (self->heading, heading);
    }
  else
    {
      g_autofree char *heading
          = g_strdup_printf (ngettext ("Opening %u file…", "Opening %u files…", n), n);

      gtk_label_set_text (self->heading, heading);
    }
  gtk_spinner_set_spinning (self->spinner, n > 0);
  if (n > 0 && self->update_id == 0)
    self->update_id = g_timeout_add (UPDATE_MS, on_update, self);
  else if (n == 0)
    g_clear_handle_id (&self->update_id, g_source_remove);
}

static LoadRow *
find_row (TressLoadingPage *self, TressProgress *progress, guint *index)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      LoadRow *row = g_ptr_array_index (self->rows, i);

      if (row->progress == progress)
        {
          if (index != NULL)
            *index = i;
          return row;
        }
    }
  return NULL;
}

static void
on_cancel_clicked (GtkButton *button, TressLoadingPage *self)
{
  TressProgress *progress = g_object_get_data (G_OBJECT (button), "tress-progress");
  g_autoptr (TressProgress) keep = NULL;

  if (find_row (self, progress, NULL) == NULL)
    return;
  keep = tress_progress_ref (progress);
  /* The work stops at its next report; the page does not wait for it. */
  g_cancellable_cancel (tress_progress_get_cancellable (progress));
  tress_loading_page_remove (self, progress);
  g_signal_emit (self, signals[SIGNAL_CANCELLED], 0, progress);
}

void
tress_loading_page_add (TressLoadingPage *self, GFile *file, TressProgress *progress)
{
  LoadRow *row;
  GtkWidget *box, *top, *button;
  g_autofree char *basename = NULL;
  g_autofree char *name = NULL;

  g_return_if_fail (TRESS_IS_LOADING_PAGE (self));
  g_return_if_fail (progress != NULL);

  if (find_row (self, progress, NULL) != NULL)
    return;
  basename = g_file_get_basename (file);
  name = g_filename_display_name (basename != NULL ? basename : "");

  row = g_new0 (LoadRow, 1);
  row->page = self;
  row->progress = tress_progress_ref (progress);
  row->row = gtk_list_box_row_new ();
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row->row), FALSE);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  row->name = GTK_LABEL (gtk_label_new (name));
  gtk_label_set_xalign (row->name, 0);
  gtk_label_set_ellipsize (row->name, PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (GTK_WIDGET (row->name), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (row->name), "heading");
  button = gtk_button_new_with_mnemonic (_ ("_Cancel"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  g_object_set_data_full (G_OBJECT (button), "tress-progress", tress_progress_ref (progress),
                          (GDestroyNotify)tress_progress_unref);
  g_signal_connect (button, "clicked", G_CALLBACK (on_cancel_clicked), self);
  gtk_box_append (GTK_BOX (top), GTK_WIDGET (row->name));
  gtk_box_append (GTK_BOX (top), button);
  row->bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_pulse_step (row->bar, 0.1);
  row->detail = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (row->detail, 0);
  gtk_widget_add_css_class (GTK_WIDGET (row->detail), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (row->detail), "caption");
  gtk_box_append (GTK_BOX (box), top);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (row->bar));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (row->detail));
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row->row), box);
  gtk_list_box_append (self->loads, row->row);
  g_ptr_array_add (self->rows, row);
  update_row (row);
  update_heading (self);
}

void
tress_loading_page_remove (TressLoadingPage *self, TressProgress *progress)
{
  guint index = 0;
  LoadRow *row;

  g_return_if_fail (TRESS_IS_LOADING_PAGE (self));

  row = find_row (self, progress, &index);
  if (row == NULL)
    return;
  gtk_list_box_remove (self->loads, row->row);
  g_ptr_array_remove_index (self->rows, index);
  update_heading (self);
}

guint
tress_loading_page_get_n_loads (TressLoadingPage *self)
{
  g_return_val_if_fail (TRESS_IS_LOADING_PAGE (self), 0);
  return self->rows->len;
}

char *
tress_loading_page_dup_text (TressLoadingPage *self)
{
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (TRESS_IS_LOADING_PAGE (self), NULL);
  for (guint i = 0; i < self->rows->len; i++)
    {
      LoadRow *row = g_ptr_array_index (self->rows, i);

      update_row (row);
      g_string_append_printf (s, "%s: %s\n", gtk_label_get_text (row->name), row->text);
    }
  return g_string_free (s, FALSE);
}

GtkWidget *
tress_loading_page_new (void)
{
  return g_object_new (TRESS_TYPE_LOADING_PAGE, NULL);
}

static void
tress_loading_page_dispose (GObject *object)
{
  TressLoadingPage *self = TRESS_LOADING_PAGE (object);

  g_clear_handle_id (&self->update_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRESS_TYPE_LOADING_PAGE);
  G_OBJECT_CLASS (tress_loading_page_parent_class)->dispose (object);
}

static void
tress_loading_page_finalize (GObject *object)
{
  TressLoadingPage *self = TRESS_LOADING_PAGE (object);

  g_ptr_array_unref (self->rows);
  G_OBJECT_CLASS (tress_loading_page_parent_class)->finalize (object);
}

static void
tress_loading_page_class_init (TressLoadingPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tress_loading_page_dispose;
  object_class->finalize = tress_loading_page_finalize;

  /* The user cancelled the load reporting to the progress (a pointer). */
  signals[SIGNAL_CANCELLED]
      = g_signal_new ("cancelled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tress/Tress/tress-loading-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TressLoadingPage, scroller);
  gtk_widget_class_bind_template_child (widget_class, TressLoadingPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, TressLoadingPage, heading);
  gtk_widget_class_bind_template_child (widget_class, TressLoadingPage, loads);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
tress_loading_page_init (TressLoadingPage *self)
{
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify)load_row_free);
  gtk_widget_init_template (GTK_WIDGET (self));
}
