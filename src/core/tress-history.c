/* tress-history.c: the undo history
 *
 * Steps live on two stacks: @undo (oldest first, the top is the last element)
 * and @redo (the next step to redo is the last element). A step is one command
 * or the commands of one outermost group, applied in order.
 *
 * Positions are absolute: the state after the oldest kept step's predecessor is
 * @base, and the current position is @base + undo->len. Dropping the oldest step
 * (limits) increments @base, so the saved position stays meaningful; when it
 * falls out of [base, base + undo->len + redo->len] it can never be reached again
 * and the history stays modified until the next save.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-history.h"

#define NO_POSITION G_MAXUINT64

typedef struct
{
  char *label;
  GPtrArray *commands; /* TressCommand*, in application order */
  gsize bytes;
} Step;

struct _TressHistory
{
  GObject parent_instance;

  gpointer target;

  GPtrArray *undo; /* Step* */
  GPtrArray *redo; /* Step* */
  guint64 base;
  guint64 saved; /* absolute position, or NO_POSITION */
  gsize bytes;

  guint max_steps;
  gsize max_bytes;

  /* The outermost open group, created on the first begin_group(). */
  guint group_depth;
  Step *group;

  /* TRUE when the top undo step was just pushed by perform/push and may absorb
   * the next command; cleared by undo, redo, save, groups and clear. */
  gboolean can_merge;
  guint replaying;

  /* The values last notified, to notify only on real changes. */
  gboolean can_undo_cached;
  gboolean can_redo_cached;
  gboolean modified_cached;
  char *undo_label_cached;
  char *redo_label_cached;
};

G_DEFINE_FINAL_TYPE (TressHistory, tress_history, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  PROP_UNDO_LABEL,
  PROP_REDO_LABEL,
  PROP_MODIFIED,
  N_PROPS
};

enum
{
  SIGNAL_APPLIED,
  SIGNAL_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Commands */

gpointer
tress_command_alloc (gsize struct_size, const TressCommandClass *klass, const char *label,
                     const char *merge_key)
{
  TressCommand *cmd;

  g_return_val_if_fail (struct_size >= sizeof (TressCommand), NULL);
  g_return_val_if_fail (klass != NULL && klass->apply != NULL, NULL);

  cmd = g_malloc0 (struct_size);
  cmd->klass = klass;
  cmd->label = g_strdup (label);
  cmd->merge_key = g_strdup (merge_key);
  return cmd;
}

void
tress_command_free (TressCommand *cmd)
{
  if (cmd == NULL)
    return;
  if (cmd->klass != NULL && cmd->klass->finalize != NULL)
    cmd->klass->finalize (cmd);
  g_free (cmd->label);
  g_free (cmd->merge_key);
  g_free (cmd);
}

static gsize
command_size (const TressCommand *cmd)
{
  return cmd->klass->size != NULL ? cmd->klass->size (cmd) : 0;
}

/* Steps */

static Step *
step_new (const char *label)
{
  Step *step = g_new0 (Step, 1);

  step->label = g_strdup (label);
  step->commands = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_command_free);
  return step;
}

static void
step_free (Step *step)
{
  if (step == NULL)
    return;
  g_free (step->label);
  g_ptr_array_unref (step->commands);
  g_free (step);
}

static const char *
step_label (const Step *step)
{
  if (step->label != NULL)
    return step->label;
  if (step->commands->len > 0)
    return ((TressCommand *)g_ptr_array_index (step->commands, 0))->label;
  return NULL;
}

/* Tries to merge @cmd into the last command of @step. On success @cmd is freed. */
static gboolean
step_try_merge (TressHistory *self, Step *step, TressCommand *cmd)
{
  TressCommand *last;
  gsize before;

  if (cmd->merge_key == NULL || step->commands->len == 0)
    return FALSE;
  last = g_ptr_array_index (step->commands, step->commands->len - 1);
  if (last->klass != cmd->klass || last->klass->merge == NULL
      || g_strcmp0 (last->merge_key, cmd->merge_key) != 0)
    return FALSE;

  before = command_size (last);
  if (!last->klass->merge (last, cmd))
    return FALSE;

  step->bytes = step->bytes - before + command_size (last);
  self->bytes = self->bytes - before + command_size (last);
  tress_command_free (cmd);
  return TRUE;
}

static void
step_add (TressHistory *self, Step *step, TressCommand *cmd)
{
  gsize size = command_size (cmd);

  g_ptr_array_add (step->commands, cmd);
  step->bytes += size;
  self->bytes += size;
}

/* State */

static guint64
current_position (TressHistory *self)
{
  return self->base + self->undo->len;
}

static gboolean
group_open_with_edits (TressHistory *self)
{
  return self->group != NULL && self->group->commands->len > 0;
}

static gboolean
compute_modified (TressHistory *self)
{
  return group_open_with_edits (self) || self->saved != current_position (self);
}

static void
sync_properties (TressHistory *self)
{
  gboolean can_undo = tress_history_can_undo (self);
  gboolean can_redo = tress_history_can_redo (self);
  gboolean modified = compute_modified (self);
  const char *undo_label = tress_history_get_undo_label (self);
  const char *redo_label = tress_history_get_redo_label (self);

  if (can_undo != self->can_undo_cached)
    {
      self->can_undo_cached = can_undo;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
    }
  if (can_redo != self->can_redo_cached)
    {
      self->can_redo_cached = can_redo;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
    }
  if (g_strcmp0 (undo_label, self->undo_label_cached) != 0)
    {
      g_free (self->undo_label_cached);
      self->undo_label_cached = g_strdup (undo_label);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNDO_LABEL]);
    }
  if (g_strcmp0 (redo_label, self->redo_label_cached) != 0)
    {
      g_free (self->redo_label_cached);
      self->redo_label_cached = g_strdup (redo_label);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REDO_LABEL]);
    }
  if (modified != self->modified_cached)
    {
      self->modified_cached = modified;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
    }
}

static void
drop_redo (TressHistory *self)
{
  guint64 pos = current_position (self);

  if (self->redo->len == 0)
    return;
  /* A saved position among the redo steps can no longer be reached. */
  if (self->saved != NO_POSITION && self->saved > pos)
    self->saved = NO_POSITION;
  for (guint i = 0; i < self->redo->len; i++)
    self->bytes -= ((Step *)g_ptr_array_index (self->redo, i))->bytes;
  g_ptr_array_set_size (self->redo, 0);
}

static void
drop_oldest_undo (TressHistory *self)
{
  Step *step = g_ptr_array_index (self->undo, 0);

  self->bytes -= step->bytes;
  g_ptr_array_remove_index (self->undo, 0);
  if (self->saved == self->base)
    self->saved = NO_POSITION;
  self->base++;
}

static void
drop_farthest_redo (TressHistory *self)
{
  Step *step = g_ptr_array_index (self->redo, 0);
  guint64 farthest = current_position (self) + self->redo->len;

  self->bytes -= step->bytes;
  g_ptr_array_remove_index (self->redo, 0);
  if (self->saved == farthest)
    self->saved = NO_POSITION;
}

static guint
n_steps (TressHistory *self)
{
  return self->undo->len + self->redo->len;
}

/* Drops the oldest steps until the limits hold: undo steps from the oldest,
 * then redo steps from the farthest. Over the byte limit, the most recent undo
 * step is kept even when it alone exceeds it, so the last edit can be undone. */
static void
enforce_limits (TressHistory *self)
{
  while (self->max_steps > 0 && n_steps (self) > self->max_steps)
    {
      if (self->undo->len > 0)
        drop_oldest_undo (self);
      else
        drop_farthest_redo (self);
    }
  while (self->max_bytes > 0 && self->bytes > self->max_bytes)
    {
      if (self->undo->len > 1)
        drop_oldest_undo (self);
      else if (self->redo->len > 0)
        drop_farthest_redo (self);
      else
        break;
    }
}

static void
record_step (TressHistory *self, Step *step)
{
  drop_redo (self);
  g_ptr_array_add (self->undo, step);
  enforce_limits (self);
}

/* Records an applied command: into the open group, merged into the top step, or
 * as a new step. Takes ownership. */
static void
record (TressHistory *self, TressCommand *cmd)
{
  if (self->group != NULL)
    {
      /* The state leaves every recorded position: redo steps are gone. */
      drop_redo (self);
      if (!step_try_merge (self, self->group, cmd))
        step_add (self, self->group, cmd);
      return;
    }

  if (self->can_merge && self->undo->len > 0 && self->saved != current_position (self)
      && step_try_merge (self, g_ptr_array_index (self->undo, self->undo->len - 1), cmd))
    {
      enforce_limits (self);
      return;
    }

  {
    Step *step = step_new (NULL);

    step_add (self, step, cmd);
    record_step (self, step);
    self->can_merge = TRUE;
  }
}

static void
apply (TressHistory *self, TressCommand *cmd, gboolean undo)
{
  cmd->klass->apply (cmd, self->target, undo);
  g_signal_emit (self, signals[SIGNAL_APPLIED], 0, cmd, undo);
}

/* After a command is recorded. The steps change only when a group ends: a
 * group of thousands of commands (an edit of every curve of a file) tells
 * once, at its end, and listeners that re-read the whole model on "changed"
 * (problems, summaries) do so once, not once per command. */
static void
recorded (TressHistory *self)
{
  if (self->group != NULL)
    return;
  sync_properties (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* Public API */

TressHistory *
tress_history_new (gpointer target)
{
  TressHistory *self = g_object_new (TRESS_TYPE_HISTORY, NULL);

  self->target = target;
  return self;
}

void
tress_history_set_target (TressHistory *self, gpointer target)
{
  g_return_if_fail (TRESS_IS_HISTORY (self));
  self->target = target;
}

void
tress_history_perform (TressHistory *self, TressCommand *cmd)
{
  g_return_if_fail (TRESS_IS_HISTORY (self));
  g_return_if_fail (cmd != NULL && cmd->klass != NULL);

  apply (self, cmd, FALSE);
  if (self->replaying > 0)
    {
      tress_command_free (cmd);
      return;
    }
  record (self, cmd);
  recorded (self);
}

void
tress_history_push (TressHistory *self, TressCommand *cmd)
{
  g_return_if_fail (TRESS_IS_HISTORY (self));
  g_return_if_fail (cmd != NULL && cmd->klass != NULL);

  if (self->replaying > 0)
    {
      tress_command_free (cmd);
      return;
    }
  record (self, cmd);
  recorded (self);
}

void
tress_history_begin_group (TressHistory *self, const char *label)
{
  g_return_if_fail (TRESS_IS_HISTORY (self));

  if (self->group_depth++ == 0)
    {
      self->group = step_new (label);
      self->can_merge = FALSE;
    }
}

void
tress_history_end_group (TressHistory *self)
{
  Step *group;

  g_return_if_fail (TRESS_IS_HISTORY (self));
  g_return_if_fail (self->group_depth > 0);

  if (--self->group_depth > 0)
    return;

  group = g_steal_pointer (&self->group);
  self->can_merge = FALSE;
  if (group->commands->len == 0)
    {
      step_free (group);
      sync_properties (self);
      return;
    }
  /* Its bytes were counted while it was open. */
  record_step (self, group);
  sync_properties (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

void
tress_history_cancel_group (TressHistory *self)
{
  Step *group;

  g_return_if_fail (TRESS_IS_HISTORY (self));
  g_return_if_fail (self->group_depth == 1);

  self->group_depth = 0;
  group = g_steal_pointer (&self->group);
  self->can_merge = FALSE;
  /* Back to the state before the group, without recording anything. */
  self->replaying++;
  for (guint i = group->commands->len; i > 0; i--)
    apply (self, g_ptr_array_index (group->commands, i - 1), TRUE);
  self->replaying--;
  self->bytes -= group->bytes;
  step_free (group);
  sync_properties (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

gboolean
tress_history_in_group (TressHistory *self)
{
  g_return_val_if_fail (TRESS_IS_HISTORY (self), FALSE);
  return self->group_depth > 0;
}

gboolean
tress_history_undo (TressHistory *self)
{
  Step *step;

  g_return_val_if_fail (TRESS_IS_HISTORY (self), FALSE);
  if (self->undo->len == 0 || self->group_depth > 0 || self->replaying > 0)
    return FALSE;

  step = g_ptr_array_steal_index (self->undo, self->undo->len - 1);
  self->replaying++;
  for (guint i = step->commands->len; i > 0; i--)
    apply (self, g_ptr_array_index (step->commands, i - 1), TRUE);
  self->replaying--;
  g_ptr_array_add (self->redo, step);
  self->can_merge = FALSE;
  sync_properties (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  return TRUE;
}

gboolean
tress_history_redo (TressHistory *self)
{
  Step *step;

  g_return_val_if_fail (TRESS_IS_HISTORY (self), FALSE);
  if (self->redo->len == 0 || self->group_depth > 0 || self->replaying > 0)
    return FALSE;

  step = g_ptr_array_steal_index (self->redo, self->redo->len - 1);
  self->replaying++;
  for (guint i = 0; i < step->commands->len; i++)
    apply (self, g_ptr_array_index (step->commands, i), FALSE);
  self->replaying--;
  g_ptr_array_add (self->undo, step);
  self->can_merge = FALSE;
  sync_properties (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  return TRUE;
}

/* can-undo and can-redo follow the step lists; undo() and redo() themselves
 * refuse (return FALSE) while a group is open, as its edits are not a step yet,
 * and while a step is being replayed. */
gboolean
tress_history_can_undo (TressHistory *self)
{
  g_return_val_if_fail (TRESS_IS_HISTORY (self), FALSE);
  return self->undo->len > 0;
}

gboolean
tress_history_can_redo (TressHistory *self)
{
  g_return_val_if_fail (TRESS_IS_HISTORY (self), FALSE);
  return self->redo->len > 0;
}

const char *
tress_history_get_undo_label (TressHistory *self)
{
  g_return_val_if_fail (TRESS_IS_HISTORY (self), NULL);
  if (self->undo->len == 0)
    return NULL;
  return step_label (g_ptr_array_index (self->undo, self->undo->len - 1));
}

const char *
tress_history_get_redo_label (TressHistory *self)
{
  g_return_val_if_fail (TRESS_IS_HISTORY (self), NULL);
  if (self->redo->len == 0)
    return NULL;
  return step_label (g_ptr_array_index (self->redo, self->redo->len - 1));
}

gboolean
tress_history_get_modified (TressHistory *self)
{
  g_return_val_if_fail (TRESS_IS_HISTORY (self), FALSE);
  return compute_modified (self);
}

void
tress_history_set_saved (TressHistory *self)
{
  g_return_if_fail (TRESS_IS_HISTORY (self));
  /* Inside a group with edits the state is between two positions. */
  self->saved = group_open_with_edits (self) ? NO_POSITION : current_position (self);
  self->can_merge = FALSE;
  sync_properties (self);
}

void
tress_history_set_unsaved (TressHistory *self)
{
  g_return_if_fail (TRESS_IS_HISTORY (self));
  self->saved = NO_POSITION;
  self->can_merge = FALSE;
  sync_properties (self);
}

void
tress_history_clear (TressHistory *self)
{
  gboolean modified;

  g_return_if_fail (TRESS_IS_HISTORY (self));

  modified = compute_modified (self);
  g_ptr_array_set_size (self->undo, 0);
  g_ptr_array_set_size (self->redo, 0);
  if (self->group != NULL)
    {
      g_ptr_array_set_size (self->group->commands, 0);
      self->group->bytes = 0;
    }
  self->bytes = 0;
  self->base = 0;
  /* The current state is what it was: still saved, or modified for good. */
  self->saved = modified ? NO_POSITION : 0;
  self->can_merge = FALSE;
  sync_properties (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

void
tress_history_set_limits (TressHistory *self, guint max_steps, gsize max_bytes)
{
  guint before;

  g_return_if_fail (TRESS_IS_HISTORY (self));
  self->max_steps = max_steps;
  self->max_bytes = max_bytes;
  before = n_steps (self);
  enforce_limits (self);
  if (n_steps (self) != before)
    {
      sync_properties (self);
      g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
    }
}

guint
tress_history_get_n_undo (TressHistory *self)
{
  g_return_val_if_fail (TRESS_IS_HISTORY (self), 0);
  return self->undo->len;
}

guint
tress_history_get_n_redo (TressHistory *self)
{
  g_return_val_if_fail (TRESS_IS_HISTORY (self), 0);
  return self->redo->len;
}

gsize
tress_history_get_bytes (TressHistory *self)
{
  g_return_val_if_fail (TRESS_IS_HISTORY (self), 0);
  return self->bytes;
}

gboolean
tress_history_is_replaying (TressHistory *self)
{
  g_return_val_if_fail (TRESS_IS_HISTORY (self), FALSE);
  return self->replaying > 0;
}

/* GObject */

static void
tress_history_finalize (GObject *object)
{
  TressHistory *self = TRESS_HISTORY (object);

  g_ptr_array_unref (self->undo);
  g_ptr_array_unref (self->redo);
  step_free (self->group);
  g_free (self->undo_label_cached);
  g_free (self->redo_label_cached);

  G_OBJECT_CLASS (tress_history_parent_class)->finalize (object);
}

static void
tress_history_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TressHistory *self = TRESS_HISTORY (object);

  switch (prop_id)
    {
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, tress_history_can_undo (self));
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, tress_history_can_redo (self));
      break;
    case PROP_UNDO_LABEL:
      g_value_set_string (value, tress_history_get_undo_label (self));
      break;
    case PROP_REDO_LABEL:
      g_value_set_string (value, tress_history_get_redo_label (self));
      break;
    case PROP_MODIFIED:
      g_value_set_boolean (value, tress_history_get_modified (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_history_class_init (TressHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = tress_history_finalize;
  object_class->get_property = tress_history_get_property;

  properties[PROP_CAN_UNDO] = g_param_spec_boolean ("can-undo", NULL, NULL, FALSE, flags);
  properties[PROP_CAN_REDO] = g_param_spec_boolean ("can-redo", NULL, NULL, FALSE, flags);
  properties[PROP_UNDO_LABEL] = g_param_spec_string ("undo-label", NULL, NULL, NULL, flags);
  properties[PROP_REDO_LABEL] = g_param_spec_string ("redo-label", NULL, NULL, NULL, flags);
  properties[PROP_MODIFIED] = g_param_spec_boolean ("modified", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* (TressCommand *cmd, gboolean undo) after every application of a command. */
  signals[SIGNAL_APPLIED]
      = g_signal_new ("applied", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                      G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_BOOLEAN);
  /* After each perform and push outside a group, undo, redo, group end or
   * cancel, clear and limit change. */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tress_history_init (TressHistory *self)
{
  self->undo = g_ptr_array_new_with_free_func ((GDestroyNotify)step_free);
  self->redo = g_ptr_array_new_with_free_func ((GDestroyNotify)step_free);
  self->base = 0;
  self->saved = 0;
}
