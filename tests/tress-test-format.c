/* tress-test-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-test-format.h"

#include <string.h>

#include "core/tress-reader.h"
#include "core/tress-writer.h"

static gint failure_mode = TRESS_TEST_FAILURE_NONE;

void
tress_test_format_set_failure (TressTestFailure failure)
{
  g_atomic_int_set (&failure_mode, (gint)failure);
}

TressTestFailure
tress_test_format_get_failure (void)
{
  return (TressTestFailure)g_atomic_int_get (&failure_mode);
}

TressTestModel *
tress_test_model_new (const guint32 *values, guint n_values)
{
  TressTestModel *model = g_new0 (TressTestModel, 1);

  model->values = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_values);
  if (n_values > 0)
    g_array_append_vals (model->values, values, n_values);
  model->trailer = g_bytes_new (NULL, 0);
  return model;
}

void
tress_test_model_free (TressTestModel *model)
{
  if (model == NULL)
    return;
  g_array_unref (model->values);
  g_bytes_unref (model->trailer);
  g_free (model);
}

guint
tress_test_model_get_n_values (const TressTestModel *model)
{
  return model->values->len;
}

guint32
tress_test_model_get_value (const TressTestModel *model, guint index)
{
  g_return_val_if_fail (index < model->values->len, 0);
  return g_array_index (model->values, guint32, index);
}

/* The format table. */

static gboolean
test_probe (const guint8 *data, gsize size)
{
  return size >= 8 && memcmp (data, TRESS_TEST_FORMAT_MAGIC, 8) == 0;
}

static gpointer
test_parse (GBytes *bytes, const char *filename, GError **error)
{
  g_autoptr (TressTestModel) model = NULL;
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  const guint8 *magic = NULL;
  TressReader r;
  guint32 count = 0;

  tress_reader_init (&r, data, size, TRESS_LITTLE_ENDIAN);
  if (!tress_reader_bytes (&r, 8, "magic", &magic, error))
    return NULL;
  if (memcmp (magic, TRESS_TEST_FORMAT_MAGIC, 8) != 0)
    {
      tress_reader_error_value (&r, error, 0, "magic", "\"" TRESS_TEST_FORMAT_MAGIC "\"",
                                "%02X %02X %02X %02X…", magic[0], magic[1], magic[2], magic[3]);
      return NULL;
    }
  if (!tress_reader_count (&r, sizeof (guint32), 0, "value count", &count, error))
    return NULL;

  model = tress_test_model_new (NULL, 0);
  g_array_set_size (model->values, count);
  for (guint32 i = 0; i < count; i++)
    if (!tress_reader_u32 (&r, "value", &g_array_index (model->values, guint32, i), error))
      return NULL;

  g_bytes_unref (model->trailer);
  model->trailer
      = g_bytes_new_from_bytes (bytes, tress_reader_tell (&r), tress_reader_remaining (&r));
  return g_steal_pointer (&model);
}

static void
test_free (gpointer model)
{
  tress_test_model_free (model);
}

static GPtrArray *
test_validate (gpointer data)
{
  TressTestModel *model = data;
  GPtrArray *problems = tress_problem_list_new ();

  for (guint i = 0; i < model->values->len; i++)
    {
      guint32 v = g_array_index (model->values, guint32, i);
      g_autofree char *location = NULL;
      gsize offset = TRESS_TEST_FORMAT_HEADER_SIZE + 4 * (gsize)i;

      if (v <= TRESS_TEST_WARNING_ABOVE)
        continue;
      location = g_strdup_printf ("value %u", i);
      if (v == TRESS_TEST_RESERVED_VALUE)
        g_ptr_array_add (problems,
                         tress_problem_new (TRESS_SEVERITY_ERROR, location, offset, "Set it to 0",
                                            0, "the value 0x%08X is reserved", v));
      else
        g_ptr_array_add (problems, tress_problem_new (TRESS_SEVERITY_WARNING, location, offset,
                                                      NULL, -1, "the value %u is above %u", v,
                                                      TRESS_TEST_WARNING_ABOVE));
    }
  return problems;
}

static GBytes *
test_serialize (gpointer data, GError **error)
{
  TressTestModel *model = data;
  TressTestFailure failure = tress_test_format_get_failure ();
  TressWriter w;
  GBytes *out;
  gsize trailer_size = 0;
  gconstpointer trailer = g_bytes_get_data (model->trailer, &trailer_size);

  if (failure == TRESS_TEST_FAILURE_SERIALIZE)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                   "The test format was told to fail while serializing");
      return NULL;
    }

  tress_writer_init (&w, TRESS_LITTLE_ENDIAN,
                     TRESS_TEST_FORMAT_HEADER_SIZE + 4 * model->values->len);
  tress_writer_bytes (&w, TRESS_TEST_FORMAT_MAGIC, 8);
  tress_writer_u32 (&w, model->values->len + (failure == TRESS_TEST_FAILURE_CORRUPT ? 1 : 0));
  for (guint i = 0; i < model->values->len; i++)
    tress_writer_u32 (&w, g_array_index (model->values, guint32, i));
  if (trailer_size > 0)
    tress_writer_bytes (&w, trailer, trailer_size);
  if (failure == TRESS_TEST_FAILURE_UNSTABLE)
    tress_writer_bytes (&w, "+", 1);
  out = tress_writer_finish (&w);
  tress_writer_clear (&w);
  return out;
}

static char *
test_describe (gpointer data)
{
  TressTestModel *model = data;
  guint64 sum = 0;

  for (guint i = 0; i < model->values->len; i++)
    sum += g_array_index (model->values, guint32, i);
  return g_strdup_printf ("Format: Tress test values\nValues: %u\nSum: %" G_GUINT64_FORMAT
                          "\nTrailing bytes: %" G_GSIZE_FORMAT "\n",
                          model->values->len, sum, g_bytes_get_size (model->trailer));
}

static void
test_dump (gpointer data, TressJsonWriter *builder)
{
  TressTestModel *model = data;

  tress_json_begin_object (builder);
  tress_json_member (builder, "values");
  tress_json_begin_array (builder);
  for (guint i = 0; i < model->values->len; i++)
    tress_json_add_int (builder, g_array_index (model->values, guint32, i));
  tress_json_end_array (builder);
  tress_json_member (builder, "trailer_size");
  tress_json_add_int (builder, (gint64)g_bytes_get_size (model->trailer));
  tress_json_end_object (builder);
}

static guint
test_fix_all (gpointer data, TressHistory *history, GError **error)
{
  TressTestModel *model = data;
  guint n = 0;

  tress_history_begin_group (history, "Fix reserved values");
  for (guint i = 0; i < model->values->len; i++)
    if (g_array_index (model->values, guint32, i) == TRESS_TEST_RESERVED_VALUE)
      {
        tress_test_model_set_value (history, model, i, 0);
        n++;
      }
  tress_history_end_group (history);
  return n;
}

static const char *const test_extensions[] = { "trsstest", NULL };

const TressFormat tress_test_format = {
  .id = "trsstest",
  .display_name = "Tress test values",
  .extensions = test_extensions,
  .mime_type = "application/x-tress-test",
  .probe = test_probe,
  .parse = test_parse,
  .free = test_free,
  .validate = test_validate,
  .serialize = test_serialize,
  .describe = test_describe,
  .dump = test_dump,
  .fix_all = test_fix_all,
  .curves = NULL,
};

void
tress_test_format_register (void)
{
  tress_formats_register (&tress_test_format);
}

GBytes *
tress_test_format_build (const guint32 *values, guint n_values)
{
  TressWriter w;
  GBytes *out;

  /* Not through test_serialize(): building sample files must not be affected by
   * an injected failure. */
  tress_writer_init (&w, TRESS_LITTLE_ENDIAN, TRESS_TEST_FORMAT_HEADER_SIZE + 4 * n_values);
  tress_writer_bytes (&w, TRESS_TEST_FORMAT_MAGIC, 8);
  tress_writer_u32 (&w, n_values);
  for (guint i = 0; i < n_values; i++)
    tress_writer_u32 (&w, values[i]);
  out = tress_writer_finish (&w);
  tress_writer_clear (&w);
  return out;
}

/* Commands. The history's target is the TressTestModel; they refer to values by index. */

typedef struct
{
  TressCommand parent;
  guint index;
  guint32 before;
  guint32 after;
} SetValueCommand;

static void
set_value_apply (TressCommand *cmd, gpointer target, gboolean undo)
{
  SetValueCommand *self = (SetValueCommand *)cmd;
  TressTestModel *model = target;

  g_return_if_fail (self->index < model->values->len);
  g_array_index (model->values, guint32, self->index) = undo ? self->before : self->after;
}

static gboolean
set_value_merge (TressCommand *cmd, const TressCommand *next)
{
  SetValueCommand *self = (SetValueCommand *)cmd;
  const SetValueCommand *other = (const SetValueCommand *)next;

  if (self->index != other->index)
    return FALSE;
  self->after = other->after;
  return TRUE;
}

static gsize
set_value_size (const TressCommand *cmd)
{
  return sizeof (SetValueCommand);
}

static const TressCommandClass set_value_class = {
  .type_name = "TressTestSetValue",
  .apply = set_value_apply,
  .merge = set_value_merge,
  .size = set_value_size,
  .finalize = NULL,
};

TressCommand *
tress_test_set_value_command_new (const TressTestModel *model, guint index, guint32 value)
{
  g_autofree char *label = g_strdup_printf ("Set value %u", index);
  g_autofree char *key = g_strdup_printf ("trsstest/set-value/%u", index);
  SetValueCommand *cmd;

  g_return_val_if_fail (index < model->values->len, NULL);
  cmd = tress_command_alloc (sizeof (SetValueCommand), &set_value_class, label, key);
  cmd->index = index;
  cmd->before = g_array_index (model->values, guint32, index);
  cmd->after = value;
  return &cmd->parent;
}

void
tress_test_model_set_value (TressHistory *history, TressTestModel *model, guint index,
                            guint32 value)
{
  TressCommand *cmd = tress_test_set_value_command_new (model, index, value);

  if (cmd != NULL)
    tress_history_perform (history, cmd);
}

typedef struct
{
  TressCommand parent;
  gboolean insert; /* FALSE: remove */
  guint index;
  guint32 value;
} InsertValueCommand;

static void
insert_value_apply (TressCommand *cmd, gpointer target, gboolean undo)
{
  InsertValueCommand *self = (InsertValueCommand *)cmd;
  TressTestModel *model = target;

  if (self->insert != undo)
    {
      g_return_if_fail (self->index <= model->values->len);
      g_array_insert_val (model->values, self->index, self->value);
    }
  else
    {
      g_return_if_fail (self->index < model->values->len);
      g_array_remove_index (model->values, self->index);
    }
}

static gsize
insert_value_size (const TressCommand *cmd)
{
  return sizeof (InsertValueCommand);
}

static const TressCommandClass insert_value_class = {
  .type_name = "TressTestInsertValue",
  .apply = insert_value_apply,
  .merge = NULL,
  .size = insert_value_size,
  .finalize = NULL,
};

TressCommand *
tress_test_insert_value_command_new (guint index, guint32 value)
{
  g_autofree char *label = g_strdup_printf ("Insert value %u", index);
  InsertValueCommand *cmd
      = tress_command_alloc (sizeof (InsertValueCommand), &insert_value_class, label, NULL);

  cmd->insert = TRUE;
  cmd->index = index;
  cmd->value = value;
  return &cmd->parent;
}

TressCommand *
tress_test_remove_value_command_new (const TressTestModel *model, guint index)
{
  g_autofree char *label = g_strdup_printf ("Remove value %u", index);
  InsertValueCommand *cmd;

  g_return_val_if_fail (index < model->values->len, NULL);
  cmd = tress_command_alloc (sizeof (InsertValueCommand), &insert_value_class, label, NULL);
  cmd->insert = FALSE;
  cmd->index = index;
  cmd->value = g_array_index (model->values, guint32, index);
  return &cmd->parent;
}
