/* tress-window-private.h: what tress-window.c and tress-window-actions.c share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-loading-page.h"
#include "tress-window.h"

G_BEGIN_DECLS

struct _TressWindow
{
  GtkApplicationWindow parent_instance;

  /* Template children */
  GtkHeaderBar *header_bar;
  GtkButton *undo_button;
  GtkButton *redo_button;
  GtkButton *save_button;
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkStack *stack;
  GtkNotebook *notebook;
  GtkWidget *welcome_page;
  TressLoadingPage *loading_page;
  GtkWidget *recent_heading;
  GtkListBox *recent_list;
  GMenu *recent_section;
  GMenu *history_section;
  GMenu *export_section;

  GSettings *settings; /* NULL when the schema is not installed */
  gboolean remember_size;
  gboolean use_recent_files;

  /* The current page's document and its history, watched for the actions. */
  TressDocumentPage *current_page; /* weak: owned by the notebook */
  GSignalGroup *document_signals;
  GSignalGroup *history_signals;

  GtkRecentManager *recent_manager;
  gulong recent_changed_id;

  gboolean has_demos; /* the build holds demo files */
  GCancellable *cancellable;
  GPtrArray *loads; /* OpenData: files being read */
  guint n_busy;
  gboolean close_confirmed;
};

void _tress_window_class_init_actions (GtkWidgetClass *widget_class);
/* Enables and labels the actions from the current document. */
void _tress_window_update_actions (TressWindow *self);
void _tress_window_set_busy (TressWindow *self, gboolean busy);

/* Dialogs (GtkMessageDialog, modal, transient for the window). */
GtkWidget *_tress_window_show_error (TressWindow *self, const char *primary, const GError *error);
char *_tress_window_describe_file (GFile *file);

/* Saves @page's document (Save As when it has no file or @save_as); @done, when
 * not NULL, gets TRUE once the document is saved, FALSE when it was not. */
typedef void (*TressSaveDone) (TressWindow *self, TressDocumentPage *page, gboolean saved,
                               gpointer user_data);
void _tress_window_save_page (TressWindow *self, TressDocumentPage *page, gboolean save_as,
                              TressSaveDone done, gpointer user_data);
/* Closes @page, asking first when it has unsaved changes. */
void _tress_window_close_page (TressWindow *self, TressDocumentPage *page);
/* Reads the page's file again (no question asked: the caller knows nothing
 * unsaved is lost, or asked); a failure is shown. */
void _tress_window_revert_page (TressWindow *self, TressDocumentPage *page);
/* Removes @page without asking. */
void _tress_window_remove_page (TressWindow *self, TressDocumentPage *page);

void _tress_window_add_recent (TressWindow *self, TressDocument *doc);

G_END_DECLS
