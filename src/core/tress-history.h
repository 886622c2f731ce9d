/* tress-history.h: the undo history every document uses
 *
 * A command stores its before and after state and refers to what it changes by
 * stable ids (indices, paths), never by pointer. Edits are made by building a
 * command and handing it to tress_history_perform(), which applies it and records
 * it: the same code path then replays it on undo and redo, with recording off.
 *
 * Consecutive commands with the same non-NULL merge key merge into one step,
 * never across the save point and never right after an undo or redo. Groups nest
 * with a depth counter; only the outermost group becomes one undo step.
 * "modified" is FALSE exactly when the current position is the saved one; once
 * the saved position is dropped from the history (a new edit after undoing past
 * it, or the limits), the document stays modified until it is saved again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct _TressCommand TressCommand;
typedef struct _TressCommandClass TressCommandClass;

struct _TressCommandClass
{
  const char *type_name;
  /* Apply the after state (@undo FALSE) or the before state (@undo TRUE) to @target. */
  void (*apply) (TressCommand *cmd, gpointer target, gboolean undo);
  /* Optional: absorb @next (same merge key, applied right after @cmd) into @cmd,
   * keeping @cmd's before state and taking @next's after state. Return FALSE to refuse. */
  gboolean (*merge) (TressCommand *cmd, const TressCommand *next);
  /* Optional: bytes held, for the history's byte limit (0 if NULL). */
  gsize (*size) (const TressCommand *cmd);
  /* Frees the subclass's fields (not the struct itself, nor label/merge_key). */
  void (*finalize) (TressCommand *cmd);
};

/* Embed as the first member of a command struct; allocate with tress_command_alloc(). */
struct _TressCommand
{
  const TressCommandClass *klass;
  char *label;     /* user-visible, e.g. "Set weights of 12 lines" */
  char *merge_key; /* NULL: never merges */
};

/* Allocates @struct_size zeroed bytes, sets the class, label (copied) and merge key. */
gpointer tress_command_alloc (gsize struct_size, const TressCommandClass *klass, const char *label,
                              const char *merge_key);
void tress_command_free (TressCommand *cmd);

#define TRESS_TYPE_HISTORY (tress_history_get_type ())
G_DECLARE_FINAL_TYPE (TressHistory, tress_history, TRESS, HISTORY, GObject)

/* @target is passed to every command's apply(); it is not referenced. */
TressHistory *tress_history_new (gpointer target);
void tress_history_set_target (TressHistory *self, gpointer target);

/* Applies @cmd (after state) and records it; takes ownership. While undoing or
 * redoing, or when recording is off, the command is applied and dropped. */
void tress_history_perform (TressHistory *self, TressCommand *cmd);
/* Records an already applied command (e.g. the end of a drag); takes ownership. */
void tress_history_push (TressHistory *self, TressCommand *cmd);

void tress_history_begin_group (TressHistory *self, const char *label);
void tress_history_end_group (TressHistory *self);
/* Closes the outermost group (the only one open) by undoing what it holds and
 * recording nothing: an edit of several parts that fails half-way leaves no
 * trace. The state is as before the group began (redo steps dropped by its
 * first command stay dropped). */
void tress_history_cancel_group (TressHistory *self);
/* TRUE while inside at least one group. */
gboolean tress_history_in_group (TressHistory *self);

gboolean tress_history_undo (TressHistory *self);
gboolean tress_history_redo (TressHistory *self);
gboolean tress_history_can_undo (TressHistory *self);
gboolean tress_history_can_redo (TressHistory *self);
/* Labels of the step undo/redo would act on, or NULL. */
const char *tress_history_get_undo_label (TressHistory *self);
const char *tress_history_get_redo_label (TressHistory *self);

gboolean tress_history_get_modified (TressHistory *self);
/* The current position becomes the saved one. */
void tress_history_set_saved (TressHistory *self);
/* The document no longer matches any position (e.g. the file changed on disk). */
void tress_history_set_unsaved (TressHistory *self);
void tress_history_clear (TressHistory *self);

/* 0 = unlimited. The oldest steps are dropped first. */
void tress_history_set_limits (TressHistory *self, guint max_steps, gsize max_bytes);
guint tress_history_get_n_undo (TressHistory *self);
guint tress_history_get_n_redo (TressHistory *self);
gsize tress_history_get_bytes (TressHistory *self);
/* TRUE while a command is being applied by undo or redo. */
gboolean tress_history_is_replaying (TressHistory *self);

G_END_DECLS
/* Signals:
 *   "applied" (TressCommand *cmd, gboolean undo): after every application of a
 *   command, by perform, undo or redo, so views can refresh exactly what changed.
 *   "changed": after each perform/undo/redo outside a group, and once at a
 *   group's end (the step list changed).
 * Properties: can-undo, can-redo, undo-label, redo-label, modified (all read-only,
 * notified only on a real change). */
