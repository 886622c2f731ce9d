/* tress-test-format.h: a tiny file format for testing the document layer and the UI
 *
 * A test file is the magic "TRSSTEST", a little-endian u32 count, that many
 * little-endian u32 values, and any trailing bytes (kept as read and written
 * back). The model is a TressTestModel. Validation reports the value 0xFFFFFFFF
 * as an error (it is "reserved"; the fix sets it to 0) and values above 0xFFFF
 * as warnings. Serialization can be made to fail on purpose to test how saving
 * copes with it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/tress-format.h"

G_BEGIN_DECLS

#define TRESS_TEST_FORMAT_MAGIC "TRSSTEST"
#define TRESS_TEST_FORMAT_HEADER_SIZE 12
#define TRESS_TEST_RESERVED_VALUE 0xFFFFFFFFu
#define TRESS_TEST_WARNING_ABOVE 0xFFFFu

typedef struct
{
  GArray *values;  /* guint32 */
  GBytes *trailer; /* the bytes after the values, written back unchanged */
} TressTestModel;

typedef enum
{
  TRESS_TEST_FAILURE_NONE,
  /* serialize() returns a TRESS_ERROR_FAILED error. */
  TRESS_TEST_FAILURE_SERIALIZE,
  /* serialize() succeeds but writes a value count one too high, so the bytes
   * do not parse again. */
  TRESS_TEST_FAILURE_CORRUPT,
  /* serialize() appends a byte "+" after the trailer: the bytes parse, but
   * written again (the trailer now ending in "+") they are one byte longer. */
  TRESS_TEST_FAILURE_UNSTABLE,
} TressTestFailure;

extern const TressFormat tress_test_format;

/* Adds tress_test_format to the format registry (idempotent). */
void tress_test_format_register (void);
/* Makes every later serialize() fail as @failure says (process-wide, thread-safe). */
void tress_test_format_set_failure (TressTestFailure failure);
TressTestFailure tress_test_format_get_failure (void);

/* The bytes of a test file holding @values (no trailer). */
GBytes *tress_test_format_build (const guint32 *values, guint n_values);

TressTestModel *tress_test_model_new (const guint32 *values, guint n_values);
void tress_test_model_free (TressTestModel *model);
guint tress_test_model_get_n_values (const TressTestModel *model);
guint32 tress_test_model_get_value (const TressTestModel *model, guint index);

/* A command setting value @index of the history's target (a TressTestModel) from
 * its current value in @model to @value. Consecutive sets of the same index merge.
 * Label "Set value N". */
TressCommand *tress_test_set_value_command_new (const TressTestModel *model, guint index,
                                                guint32 value);
/* Builds that command and performs it through @history (whose target is @model). */
void tress_test_model_set_value (TressHistory *history, TressTestModel *model, guint index,
                                 guint32 value);
/* A command inserting @value at @index (index == n appends). Label "Insert value N". */
TressCommand *tress_test_insert_value_command_new (guint index, guint32 value);
/* A command removing value @index (its value is taken from @model). Label "Remove value N". */
TressCommand *tress_test_remove_value_command_new (const TressTestModel *model, guint index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressTestModel, tress_test_model_free)

G_END_DECLS
