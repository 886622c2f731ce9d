/* test-history.c: the undo history
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "core/tress-history.h"

#include <string.h>

#define N_SLOTS 8

typedef int Slots[N_SLOTS];

/* The target of the test commands: a few integer slots. */
typedef struct
{
  int slots[N_SLOTS];
  guint n_applied;
} Board;

/* "Set slot N to V"; merges with the next command of the same key. */
typedef struct
{
  TressCommand parent;
  guint slot;
  int before;
  int after;
  gsize size;
  gboolean refuse_merge;
} SetSlot;

static guint n_finalized;

static void
set_slot_apply (TressCommand *cmd, gpointer target, gboolean undo)
{
  SetSlot *self = (SetSlot *)cmd;
  Board *board = target;

  board->slots[self->slot] = undo ? self->before : self->after;
  board->n_applied++;
}

static gboolean
set_slot_merge (TressCommand *cmd, const TressCommand *next)
{
  SetSlot *self = (SetSlot *)cmd;
  const SetSlot *other = (const SetSlot *)next;

  if (self->refuse_merge || other->refuse_merge)
    return FALSE;
  self->after = other->after;
  self->size += other->size;
  return TRUE;
}

static gsize
set_slot_size (const TressCommand *cmd)
{
  return ((const SetSlot *)cmd)->size;
}

static void
set_slot_finalize (TressCommand *cmd)
{
  n_finalized++;
}

static const TressCommandClass set_slot_class = {
  .type_name = "SetSlot",
  .apply = set_slot_apply,
  .merge = set_slot_merge,
  .size = set_slot_size,
  .finalize = set_slot_finalize,
};

static TressCommand *
set_slot_full (const Board *board, guint slot, int value, const char *merge_key, gsize size)
{
  g_autofree char *label = g_strdup_printf ("Set slot %u", slot);
  SetSlot *cmd = tress_command_alloc (sizeof (SetSlot), &set_slot_class, label, merge_key);

  cmd->slot = slot;
  cmd->before = board->slots[slot];
  cmd->after = value;
  cmd->size = size;
  return &cmd->parent;
}

/* No merge key: never merges. */
static TressCommand *
set_slot (const Board *board, guint slot, int value)
{
  return set_slot_full (board, slot, value, NULL, 10);
}

/* Merges with consecutive edits of the same slot. */
static TressCommand *
set_slot_merging (const Board *board, guint slot, int value)
{
  g_autofree char *key = g_strdup_printf ("slot/%u", slot);

  return set_slot_full (board, slot, value, key, 10);
}

static void
perform (TressHistory *history, Board *board, guint slot, int value)
{
  tress_history_perform (history, set_slot (board, slot, value));
}

static void
perform_merging (TressHistory *history, Board *board, guint slot, int value)
{
  tress_history_perform (history, set_slot_merging (board, slot, value));
}

static void
test_perform_undo_redo (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);

  g_assert_false (tress_history_can_undo (history));
  g_assert_false (tress_history_can_redo (history));
  g_assert_null (tress_history_get_undo_label (history));
  g_assert_false (tress_history_get_modified (history));
  g_assert_false (tress_history_undo (history));
  g_assert_false (tress_history_redo (history));

  perform (history, &board, 0, 5);
  perform (history, &board, 3, 7);
  perform (history, &board, 0, 9);
  g_assert_cmpint (board.slots[0], ==, 9);
  g_assert_cmpint (board.slots[3], ==, 7);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 3);
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Set slot 0");
  g_assert_true (tress_history_get_modified (history));

  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[0], ==, 5);
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Set slot 3");
  g_assert_cmpstr (tress_history_get_redo_label (history), ==, "Set slot 0");
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[3], ==, 0);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[0], ==, 0);
  g_assert_false (tress_history_undo (history));
  g_assert_false (tress_history_get_modified (history));
  g_assert_cmpuint (tress_history_get_n_redo (history), ==, 3);

  g_assert_true (tress_history_redo (history));
  g_assert_true (tress_history_redo (history));
  g_assert_cmpint (board.slots[0], ==, 5);
  g_assert_cmpint (board.slots[3], ==, 7);

  /* A new edit drops what could be redone. */
  perform (history, &board, 1, 1);
  g_assert_false (tress_history_can_redo (history));
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 3);
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_undo (history));
  g_assert_cmpmem (board.slots, sizeof board.slots, (int[N_SLOTS]){ 0 }, sizeof board.slots);
}

static void
test_push (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);
  TressCommand *cmd;

  /* A drag changes the board live, then records one command at its end. */
  cmd = set_slot (&board, 2, 40);
  board.slots[2] = 10;
  board.slots[2] = 40;
  board.n_applied = 0;
  tress_history_push (history, cmd);
  g_assert_cmpuint (board.n_applied, ==, 0);
  g_assert_true (tress_history_can_undo (history));
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[2], ==, 0);
  g_assert_true (tress_history_redo (history));
  g_assert_cmpint (board.slots[2], ==, 40);
}

static void
test_merge (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);

  /* Consecutive edits of one slot become one step keeping the first before. */
  perform_merging (history, &board, 1, 1);
  perform_merging (history, &board, 1, 2);
  perform_merging (history, &board, 1, 3);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
  g_assert_cmpuint (tress_history_get_bytes (history), ==, 30);
  g_assert_cmpint (board.slots[1], ==, 3);

  /* Another key, or no key, does not merge. */
  perform_merging (history, &board, 2, 1);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 2);
  perform (history, &board, 2, 5);
  perform (history, &board, 2, 6);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 4);

  /* After a non-merging step the same key starts a new step. */
  perform_merging (history, &board, 1, 4);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 5);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[1], ==, 3);
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[2], ==, 0);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[1], ==, 0);
  g_assert_false (tress_history_get_modified (history));
}

static void
test_merge_refused (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);
  TressCommand *cmd;

  perform_merging (history, &board, 1, 1);
  cmd = set_slot_merging (&board, 1, 2);
  ((SetSlot *)cmd)->refuse_merge = TRUE;
  tress_history_perform (history, cmd);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 2);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[1], ==, 1);
}

static void
test_merge_not_after_undo_redo (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);

  perform (history, &board, 0, 1);
  perform_merging (history, &board, 1, 1);
  perform_merging (history, &board, 1, 2);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 2);

  /* Right after a redo the redone step must stay as it was. */
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_redo (history));
  perform_merging (history, &board, 1, 3);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 3);
  /* … but the new step absorbs what follows it. */
  perform_merging (history, &board, 1, 4);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 3);

  /* Right after an undo the next edit starts its own step. */
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[1], ==, 2);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[1], ==, 0);
  perform_merging (history, &board, 0, 7);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 2);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[0], ==, 1);
  g_assert_cmpint (board.slots[1], ==, 0);
}

static void
test_merge_not_across_save_point (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);

  perform_merging (history, &board, 4, 1);
  tress_history_set_saved (history);
  g_assert_false (tress_history_get_modified (history));
  perform_merging (history, &board, 4, 2);
  perform_merging (history, &board, 4, 3);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 2);
  g_assert_true (tress_history_get_modified (history));

  /* Undo lands exactly on what was saved. */
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[4], ==, 1);
  g_assert_false (tress_history_get_modified (history));
}

static void
test_groups (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);

  perform (history, &board, 0, 1);
  tress_history_begin_group (history, "Fix everything");
  g_assert_true (tress_history_in_group (history));
  perform (history, &board, 1, 1);
  tress_history_begin_group (history, "Inner");
  perform (history, &board, 2, 1);
  perform (history, &board, 1, 2);
  tress_history_end_group (history);
  /* The inner end makes no step. */
  g_assert_true (tress_history_in_group (history));
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
  /* Undo waits for the group to end. */
  g_assert_false (tress_history_undo (history));
  g_assert_cmpint (board.slots[1], ==, 2);
  perform (history, &board, 3, 1);
  tress_history_end_group (history);
  g_assert_false (tress_history_in_group (history));

  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 2);
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Fix everything");
  g_assert_cmpuint (tress_history_get_bytes (history), ==, 50);

  /* One undo reverts every command of the group, in reverse order. */
  g_assert_true (tress_history_undo (history));
  g_assert_cmpmem (board.slots, 4 * sizeof (int), ((int[]){ 1, 0, 0, 0 }), 4 * sizeof (int));
  g_assert_cmpstr (tress_history_get_redo_label (history), ==, "Fix everything");
  g_assert_true (tress_history_redo (history));
  g_assert_cmpmem (board.slots, 4 * sizeof (int), ((int[]){ 1, 2, 1, 1 }), 4 * sizeof (int));

  /* An empty group leaves no step. */
  tress_history_begin_group (history, "Nothing");
  tress_history_end_group (history);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 2);
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Fix everything");

  /* Without a label a group takes its first command's. */
  tress_history_begin_group (history, NULL);
  perform (history, &board, 5, 1);
  perform (history, &board, 6, 1);
  tress_history_end_group (history);
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Set slot 5");

  /* A step before a group does not absorb the group's commands. */
  perform_merging (history, &board, 7, 1);
  tress_history_begin_group (history, "Group");
  perform_merging (history, &board, 7, 2);
  perform_merging (history, &board, 7, 3);
  tress_history_end_group (history);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 5);
  /* … nor does a group absorb what follows it. */
  perform_merging (history, &board, 7, 4);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 6);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[7], ==, 3);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[7], ==, 1);
}

static void
test_group_drops_redo (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);

  perform (history, &board, 0, 1);
  tress_history_set_saved (history);
  perform (history, &board, 0, 2);
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (tress_history_get_n_redo (history), ==, 2);
  tress_history_begin_group (history, "G");
  perform (history, &board, 1, 1);
  /* Edits inside an open group already count as a modification. */
  g_assert_true (tress_history_get_modified (history));
  tress_history_end_group (history);
  g_assert_cmpuint (tress_history_get_n_redo (history), ==, 0);
  g_assert_true (tress_history_get_modified (history));
  g_assert_true (tress_history_undo (history));
  /* The saved state (slot 0 = 1) can no longer be reached. */
  g_assert_true (tress_history_get_modified (history));
}

static void
test_save_point (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);

  perform (history, &board, 0, 1);
  perform (history, &board, 0, 2);
  tress_history_set_saved (history);
  g_assert_false (tress_history_get_modified (history));

  /* Undo away from the save and back to it. */
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_get_modified (history));
  g_assert_true (tress_history_redo (history));
  g_assert_false (tress_history_get_modified (history));

  perform (history, &board, 0, 3);
  g_assert_true (tress_history_get_modified (history));
  g_assert_true (tress_history_undo (history));
  g_assert_false (tress_history_get_modified (history));
  g_assert_cmpint (board.slots[0], ==, 2);

  /* Undo past the save point and make a new edit: modified for good. */
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[0], ==, 0);
  perform (history, &board, 1, 1);
  g_assert_true (tress_history_get_modified (history));
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_get_modified (history));
  g_assert_true (tress_history_redo (history));
  g_assert_true (tress_history_get_modified (history));
  g_assert_false (tress_history_can_redo (history));

  /* … until saved again. */
  tress_history_set_saved (history);
  g_assert_false (tress_history_get_modified (history));
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_get_modified (history));
  g_assert_true (tress_history_redo (history));
  g_assert_false (tress_history_get_modified (history));

  /* The file changed on disk: no position matches it. */
  tress_history_set_unsaved (history);
  g_assert_true (tress_history_get_modified (history));
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_redo (history));
  g_assert_true (tress_history_get_modified (history));
}

static void
test_clear (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);

  perform (history, &board, 0, 1);
  tress_history_clear (history);
  g_assert_false (tress_history_can_undo (history));
  g_assert_cmpuint (tress_history_get_bytes (history), ==, 0);
  /* The board still differs from what was saved. */
  g_assert_true (tress_history_get_modified (history));
  tress_history_set_saved (history);
  tress_history_clear (history);
  g_assert_false (tress_history_get_modified (history));
  perform (history, &board, 0, 2);
  g_assert_true (tress_history_undo (history));
  g_assert_false (tress_history_get_modified (history));
  g_assert_cmpint (board.slots[0], ==, 1);
}

static void
test_limit_steps (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);

  tress_history_set_limits (history, 3, 0);
  for (int i = 1; i <= 5; i++)
    perform (history, &board, 0, i);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 3);
  g_assert_cmpuint (tress_history_get_bytes (history), ==, 30);

  /* The oldest steps are gone: undo stops at the state after edit 2. */
  while (tress_history_undo (history))
    ;
  g_assert_cmpint (board.slots[0], ==, 2);
  /* The saved state (nothing) dropped out of the history: modified for good. */
  g_assert_true (tress_history_get_modified (history));
  g_assert_cmpuint (tress_history_get_n_redo (history), ==, 3);
  while (tress_history_redo (history))
    ;
  g_assert_cmpint (board.slots[0], ==, 5);

  /* Lowering the limit drops steps at once, oldest first. */
  tress_history_set_limits (history, 1, 0);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[0], ==, 4);
  g_assert_false (tress_history_undo (history));
}

static void
test_limit_steps_keeps_save_point (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);

  tress_history_set_limits (history, 2, 0);
  perform (history, &board, 0, 1);
  perform (history, &board, 0, 2);
  perform (history, &board, 0, 3);
  tress_history_set_saved (history);
  perform (history, &board, 0, 4);
  perform (history, &board, 0, 5);
  /* The save (position 3) is the oldest reachable state: still reachable. */
  g_assert_true (tress_history_undo (history));
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[0], ==, 3);
  g_assert_false (tress_history_get_modified (history));
  g_assert_true (tress_history_redo (history));
  g_assert_true (tress_history_redo (history));
  perform (history, &board, 0, 6);
  /* Now it is not. */
  while (tress_history_undo (history))
    ;
  g_assert_cmpint (board.slots[0], ==, 4);
  g_assert_true (tress_history_get_modified (history));
}

static void
test_limit_bytes (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);

  tress_history_set_limits (history, 0, 250);
  tress_history_perform (history, set_slot_full (&board, 0, 1, NULL, 100));
  tress_history_perform (history, set_slot_full (&board, 0, 2, NULL, 100));
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 2);
  tress_history_perform (history, set_slot_full (&board, 0, 3, NULL, 100));
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 2);
  g_assert_cmpuint (tress_history_get_bytes (history), ==, 200);

  /* A merge that grows a step enforces the limit too. */
  tress_history_perform (history, set_slot_full (&board, 1, 1, "k", 100));
  tress_history_perform (history, set_slot_full (&board, 1, 2, "k", 100));
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
  g_assert_cmpuint (tress_history_get_bytes (history), ==, 200);

  /* A single step larger than the limit is kept, alone, so it can be undone. */
  tress_history_perform (history, set_slot_full (&board, 2, 9, NULL, 1000));
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
  g_assert_cmpuint (tress_history_get_bytes (history), ==, 1000);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[2], ==, 0);
  g_assert_cmpint (board.slots[1], ==, 2);
  /* Undone steps count towards the bytes until dropped. */
  g_assert_cmpuint (tress_history_get_bytes (history), ==, 1000);
  perform (history, &board, 3, 1);
  g_assert_cmpuint (tress_history_get_bytes (history), ==, 10);
}

static void
test_commands_freed (void)
{
  Board board = { { 0 } };
  TressHistory *history = tress_history_new (&board);

  n_finalized = 0;
  perform (history, &board, 0, 1);
  perform_merging (history, &board, 1, 1);
  perform_merging (history, &board, 1, 2); /* absorbed and freed */
  g_assert_cmpuint (n_finalized, ==, 1);
  g_assert_true (tress_history_undo (history));
  perform (history, &board, 2, 1); /* frees the redo step */
  g_assert_cmpuint (n_finalized, ==, 2);
  tress_history_begin_group (history, "open at the end");
  perform (history, &board, 3, 1);
  g_assert_finalize_object (history);
  g_assert_cmpuint (n_finalized, ==, 5);
}

/* Notifications */

typedef struct
{
  guint can_undo, can_redo, undo_label, redo_label, modified;
  guint changed;
  guint applied, applied_undo;
} Counts;

static void
on_notify (GObject *object, GParamSpec *pspec, Counts *counts)
{
  const char *name = g_param_spec_get_name (pspec);

  if (strcmp (name, "can-undo") == 0)
    counts->can_undo++;
  else if (strcmp (name, "can-redo") == 0)
    counts->can_redo++;
  else if (strcmp (name, "undo-label") == 0)
    counts->undo_label++;
  else if (strcmp (name, "redo-label") == 0)
    counts->redo_label++;
  else if (strcmp (name, "modified") == 0)
    counts->modified++;
}

static void
on_changed (TressHistory *history, Counts *counts)
{
  counts->changed++;
}

static void
on_applied (TressHistory *history, TressCommand *cmd, gboolean undo, Counts *counts)
{
  g_assert_nonnull (cmd);
  g_assert_true (cmd->klass == &set_slot_class);
  counts->applied++;
  if (undo)
    counts->applied_undo++;
  g_assert_true (tress_history_is_replaying (history) || !undo);
}

#define assert_counts(c, cu, cr, ul, rl, m)                                                        \
  G_STMT_START                                                                                     \
  {                                                                                                \
    g_assert_cmpuint ((c)->can_undo, ==, cu);                                                      \
    g_assert_cmpuint ((c)->can_redo, ==, cr);                                                      \
    g_assert_cmpuint ((c)->undo_label, ==, ul);                                                    \
    g_assert_cmpuint ((c)->redo_label, ==, rl);                                                    \
    g_assert_cmpuint ((c)->modified, ==, m);                                                       \
    memset ((c), 0, sizeof *(c));                                                                  \
  }                                                                                                \
  G_STMT_END

static void
test_notify (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);
  Counts c = { 0 };
  gboolean value = TRUE;

  g_signal_connect (history, "notify", G_CALLBACK (on_notify), &c);

  g_object_get (history, "can-undo", &value, NULL);
  g_assert_false (value);

  perform (history, &board, 0, 1);
  assert_counts (&c, 1, 0, 1, 0, 1);
  g_object_get (history, "can-undo", &value, "modified", &value, NULL);
  g_assert_true (value);

  /* Same label, still modified, can still undo: nothing to notify. */
  perform (history, &board, 0, 2);
  assert_counts (&c, 0, 0, 0, 0, 0);
  perform (history, &board, 1, 2);
  assert_counts (&c, 0, 0, 1, 0, 0);
  perform_merging (history, &board, 2, 1);
  assert_counts (&c, 0, 0, 1, 0, 0);
  perform_merging (history, &board, 2, 2);
  assert_counts (&c, 0, 0, 0, 0, 0);

  tress_history_set_saved (history);
  assert_counts (&c, 0, 0, 0, 0, 1);
  tress_history_set_saved (history);
  assert_counts (&c, 0, 0, 0, 0, 0);

  g_assert_true (tress_history_undo (history)); /* undo: "Set slot 1", redo: "Set slot 2" */
  assert_counts (&c, 0, 1, 1, 1, 1);
  g_assert_true (tress_history_undo (history)); /* undo: "Set slot 0" */
  assert_counts (&c, 0, 0, 1, 1, 0);
  g_assert_true (tress_history_redo (history));
  assert_counts (&c, 0, 0, 1, 1, 0);
  g_assert_true (tress_history_redo (history)); /* back at the save */
  assert_counts (&c, 0, 1, 1, 1, 1);

  tress_history_set_unsaved (history);
  assert_counts (&c, 0, 0, 0, 0, 1);
  tress_history_set_unsaved (history);
  assert_counts (&c, 0, 0, 0, 0, 0);

  tress_history_begin_group (history, "Group");
  perform (history, &board, 3, 1);
  perform (history, &board, 4, 1);
  assert_counts (&c, 0, 0, 0, 0, 0);
  tress_history_end_group (history);
  assert_counts (&c, 0, 0, 1, 0, 0);

  tress_history_clear (history);
  assert_counts (&c, 1, 0, 1, 0, 0);
  tress_history_set_saved (history);
  assert_counts (&c, 0, 0, 0, 0, 1);
}

static void
test_signals (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);
  Counts c = { 0 };

  g_signal_connect (history, "changed", G_CALLBACK (on_changed), &c);
  g_signal_connect (history, "applied", G_CALLBACK (on_applied), &c);

  perform (history, &board, 0, 1);
  g_assert_cmpuint (c.applied, ==, 1);
  g_assert_cmpuint (c.applied_undo, ==, 0);
  g_assert_cmpuint (c.changed, ==, 1);

  tress_history_begin_group (history, "Group");
  perform (history, &board, 1, 1);
  perform (history, &board, 2, 1);
  perform (history, &board, 3, 1);
  /* A group's commands are applied at once and told about at its end. */
  g_assert_cmpuint (c.applied, ==, 4);
  g_assert_cmpuint (c.changed, ==, 1);
  tress_history_end_group (history);
  g_assert_cmpuint (c.applied, ==, 4);
  g_assert_cmpuint (c.changed, ==, 2);

  memset (&c, 0, sizeof c);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (c.applied, ==, 3);
  g_assert_cmpuint (c.applied_undo, ==, 3);
  g_assert_cmpuint (c.changed, ==, 1);
  g_assert_true (tress_history_redo (history));
  g_assert_cmpuint (c.applied, ==, 6);
  g_assert_cmpuint (c.applied_undo, ==, 3);
  g_assert_cmpuint (c.changed, ==, 2);
  g_assert_false (tress_history_is_replaying (history));
}

/* A command performed while a step is replayed is applied but not recorded. */
static void
on_applied_perform (TressHistory *history, TressCommand *cmd, gboolean undo, Board *board)
{
  if (tress_history_is_replaying (history) && ((SetSlot *)cmd)->slot == 0)
    perform (history, board, 7, board->slots[7] + 1);
}

static void
test_perform_while_replaying (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);

  g_signal_connect (history, "applied", G_CALLBACK (on_applied_perform), &board);
  perform (history, &board, 0, 1);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[7], ==, 1);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 0);
  g_assert_cmpuint (tress_history_get_n_redo (history), ==, 1);
}

/* A random walk of edits, groups, undo, redo and saves against a list of the
 * states each position must restore exactly. */
static void
test_random_walk (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);
  g_autoptr (GArray) states = g_array_new (FALSE, FALSE, sizeof board.slots);
  guint pos = 0;
  gint saved = 0; /* index into states, -1 when unreachable */

  g_array_append_val (states, board.slots);
  for (guint step = 0; step < 2000; step++)
    {
      guint op = g_test_rand_int_range (0, 10);

      if (op < 4)
        {
          guint n = op == 3 ? (guint)g_test_rand_int_range (1, 4) : 1;

          if (n > 1)
            tress_history_begin_group (history, "Random group");
          for (guint i = 0; i < n; i++)
            perform (history, &board, g_test_rand_int_range (0, N_SLOTS),
                     g_test_rand_int_range (-100, 100));
          if (n > 1)
            tress_history_end_group (history);
          if (saved > (gint)pos)
            saved = -1;
          pos++;
          g_array_set_size (states, pos);
          g_array_append_val (states, board.slots);
        }
      else if (op < 7)
        {
          gboolean done = tress_history_undo (history);
          g_assert_cmpint (done, ==, pos > 0);
          if (done)
            pos--;
        }
      else if (op < 9)
        {
          gboolean done = tress_history_redo (history);
          g_assert_cmpint (done, ==, pos + 1 < states->len);
          if (done)
            pos++;
        }
      else
        {
          tress_history_set_saved (history);
          saved = pos;
        }

      g_assert_cmpmem (board.slots, sizeof board.slots, &g_array_index (states, Slots, pos),
                       sizeof board.slots);
      g_assert_cmpint (tress_history_get_modified (history), ==, saved != (gint)pos);
      g_assert_cmpuint (tress_history_get_n_undo (history), ==, pos);
      g_assert_cmpuint (tress_history_get_n_redo (history), ==, states->len - 1 - pos);
    }
}

/* A group cancelled half-way takes back what it did and records nothing. */
static void
test_cancel_group (void)
{
  Board board = { { 0 } };
  g_autoptr (TressHistory) history = tress_history_new (&board);
  gsize bytes;

  perform (history, &board, 0, 1);
  bytes = tress_history_get_bytes (history);
  g_assert_true (tress_history_get_modified (history));
  tress_history_set_saved (history);
  tress_history_begin_group (history, "Both or neither");
  perform (history, &board, 1, 5);
  tress_history_perform (history, set_slot_merging (&board, 2, 6));
  tress_history_perform (history, set_slot_merging (&board, 2, 7));
  g_assert_cmpmem (board.slots, 4 * sizeof (int), ((int[]){ 1, 5, 7, 0 }), 4 * sizeof (int));
  tress_history_cancel_group (history);
  g_assert_false (tress_history_in_group (history));
  g_assert_cmpmem (board.slots, 4 * sizeof (int), ((int[]){ 1, 0, 0, 0 }), 4 * sizeof (int));
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);
  g_assert_cmpuint (tress_history_get_n_redo (history), ==, 0);
  g_assert_cmpuint (tress_history_get_bytes (history), ==, bytes);
  g_assert_false (tress_history_get_modified (history)); /* back at the saved state */
  /* The history goes on as before. */
  g_assert_true (tress_history_undo (history));
  g_assert_cmpint (board.slots[0], ==, 0);
  g_assert_true (tress_history_redo (history));
  g_assert_cmpint (board.slots[0], ==, 1);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/history/perform-undo-redo", test_perform_undo_redo);
  g_test_add_func ("/history/push", test_push);
  g_test_add_func ("/history/merge", test_merge);
  g_test_add_func ("/history/merge-refused", test_merge_refused);
  g_test_add_func ("/history/merge-not-after-undo-redo", test_merge_not_after_undo_redo);
  g_test_add_func ("/history/merge-not-across-save-point", test_merge_not_across_save_point);
  g_test_add_func ("/history/groups", test_groups);
  g_test_add_func ("/history/group-drops-redo", test_group_drops_redo);
  g_test_add_func ("/history/cancel-group", test_cancel_group);
  g_test_add_func ("/history/save-point", test_save_point);
  g_test_add_func ("/history/clear", test_clear);
  g_test_add_func ("/history/limit-steps", test_limit_steps);
  g_test_add_func ("/history/limit-steps-keeps-save-point", test_limit_steps_keeps_save_point);
  g_test_add_func ("/history/limit-bytes", test_limit_bytes);
  g_test_add_func ("/history/commands-freed", test_commands_freed);
  g_test_add_func ("/history/notify", test_notify);
  g_test_add_func ("/history/signals", test_signals);
  g_test_add_func ("/history/perform-while-replaying", test_perform_while_replaying);
  g_test_add_func ("/history/random-walk", test_random_walk);

  return g_test_run ();
}
