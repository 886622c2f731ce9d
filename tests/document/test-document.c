/* test-document.c: TressDocument with the test format: loading, saving safely,
 * revert, problems, notifications
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "document/tress-document.h"
#include "tress-race-file.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <grp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include "tress-test-format.h"
#include "tress-test-utils.h"

static const guint32 initial_values[] = { 1, 2, 3, 4 };

/* A fresh folder for one test. */
static char *
make_folder (const char *name)
{
  char *dir = g_build_filename (tress_test_tmpdir (), name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  return dir;
}

static GBytes *
read_path (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, len);
}

static void
write_path (const char *path, GBytes *bytes)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
}

/* Writes a test file with @values (and @trailer, if any) and returns its path. */
static char *
write_test_file (const char *dir, const char *name, const guint32 *values, guint n,
                 const char *trailer)
{
  g_autoptr (GBytes) bytes = tress_test_format_build (values, n);
  g_autoptr (GByteArray) all = g_byte_array_new ();
  g_autoptr (GBytes) joined = NULL;
  char *path = g_build_filename (dir, name, NULL);

  g_byte_array_append (all, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  if (trailer != NULL)
    g_byte_array_append (all, (const guint8 *)trailer, strlen (trailer));
  joined = g_byte_array_free_to_bytes (g_steal_pointer (&all));
  write_path (path, joined);
  return path;
}

static TressDocument *
load_path (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  TressDocument *doc = tress_document_load (file, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

static TressTestModel *
model_of (TressDocument *doc)
{
  return tress_document_get_model (doc);
}

static void
set_value (TressDocument *doc, guint index, guint32 value)
{
  tress_test_model_set_value (tress_document_get_history (doc), model_of (doc), index, value);
}

static void
count_cb (gpointer instance, gpointer counter)
{
  (*(guint *)counter)++;
}

static void
notify_count_cb (GObject *object, GParamSpec *pspec, gpointer counter)
{
  (*(guint *)counter)++;
}

/* Loading */

static void
test_new_from_bytes (void)
{
  g_autoptr (GBytes) bytes = tress_test_format_build (initial_values, 4);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = tress_document_new_from_bytes (bytes, "Demo values", &error);

  g_assert_no_error (error);
  g_assert_true (tress_document_get_format (doc) == &tress_test_format);
  g_assert_cmpstr (tress_document_get_title (doc), ==, "Demo values");
  g_assert_null (tress_document_get_file (doc));
  g_assert_false (tress_document_get_modified (doc));
  g_assert_false (tress_document_changed_on_disk (doc));
  g_assert_cmpuint (tress_test_model_get_n_values (model_of (doc)), ==, 4);
  g_assert_cmpuint (tress_test_model_get_value (model_of (doc), 2), ==, 3);
  g_assert_true (tress_document_get_original_bytes (doc) == bytes);

  /* Without a file, saving needs a name. */
  g_assert_false (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "Demo values"));
  g_clear_error (&error);
  g_assert_false (tress_document_revert (doc, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_FAILED);
}

static void
test_load (void)
{
  g_autofree char *dir = make_folder ("load");
  g_autofree char *path = write_test_file (dir, "values.trsstest", initial_values, 4, "tail");
  g_autoptr (GBytes) on_disk = read_path (path);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  g_assert_true (g_file_equal (tress_document_get_file (doc), file));
  g_assert_cmpstr (tress_document_get_title (doc), ==, "values.trsstest");
  g_assert_false (tress_document_get_modified (doc));
  g_assert_false (tress_document_changed_on_disk (doc));
  tress_test_assert_bytes_equal (tress_document_get_original_bytes (doc), on_disk);
  g_assert_cmpuint (tress_test_model_get_n_values (model_of (doc)), ==, 4);
  g_assert_cmpuint (g_bytes_get_size (model_of (doc)->trailer), ==, 4);
}

static void
load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GAsyncResult **out = user_data;

  g_assert_null (source);
  *out = g_object_ref (result);
}

static TressDocument *
load_async_and_wait (GFile *file, GError **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  tress_document_load_async (file, NULL, load_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return tress_document_load_finish (result, error);
}

static void
test_load_async (void)
{
  g_autofree char *dir = make_folder ("load-async");
  g_autofree char *path = write_test_file (dir, "async.trsstest", initial_values, 4, NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.trsstest", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFile) missing_file = g_file_new_for_path (missing);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = load_async_and_wait (file, &error);
  g_autoptr (TressDocument) none = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (tress_document_get_title (doc), ==, "async.trsstest");
  g_assert_cmpuint (tress_test_model_get_value (model_of (doc), 3), ==, 4);

  none = load_async_and_wait (missing_file, &error);
  g_assert_null (none);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "missing.trsstest"));
}

static void
assert_load_fails (const char *path, GQuark domain, int code, const char *const *needles)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = tress_document_load (file, NULL, &error);

  g_assert_null (doc);
  g_assert_error (error, domain, code);
  for (guint i = 0; needles != NULL && needles[i] != NULL; i++)
    if (strstr (error->message, needles[i]) == NULL)
      g_error ("“%s” is not in the error “%s”", needles[i], error->message);
}

static void
test_load_errors (void)
{
  g_autofree char *dir = make_folder ("load-errors");
  g_autofree char *truncated = g_build_filename (dir, "truncated.trsstest", NULL);
  g_autofree char *unknown = g_build_filename (dir, "unknown.trsstest", NULL);
  g_autoptr (GBytes) full = tress_test_format_build (initial_values, 4);
  g_autoptr (GBytes) cut = g_bytes_new_from_bytes (full, 0, g_bytes_get_size (full) - 6);
  g_autoptr (GBytes) junk = g_bytes_new_static ("JUNKJUNKJUNK", 12);

  /* The count (4 values) does not fit in the 10 bytes left: field and offset named. */
  write_path (truncated, cut);
  assert_load_fails (truncated, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                     (const char *const[]){ "truncated.trsstest", "value count", "0x8", NULL });

  write_path (unknown, junk);
  assert_load_fails (unknown, TRESS_ERROR, TRESS_ERROR_UNKNOWN_FORMAT,
                     (const char *const[]){ "unknown.trsstest", "4A 55 4E 4B", NULL });

  /* A folder is not a file, and the error says which. */
  assert_load_fails (dir, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                     (const char *const[]){ "load-errors", NULL });
  /* Nor is a device that never ends. */
  assert_load_fails ("/dev/zero", G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, NULL);
}

static void
test_format_by_content (void)
{
  g_autofree char *dir = make_folder ("by-content");
  /* The name says creature fur, the bytes say test values. */
  g_autofree char *path = write_test_file (dir, "creature.cha", initial_values, 4, NULL);
  g_autoptr (TressDocument) doc = load_path (path);

  g_assert_true (tress_document_get_format (doc) == &tress_test_format);
}

/* A subclass registered for the test format. */

#define TEST_TYPE_SUB_DOCUMENT (test_sub_document_get_type ())
G_DECLARE_FINAL_TYPE (TestSubDocument, test_sub_document, TEST, SUB_DOCUMENT, TressDocument)

struct _TestSubDocument
{
  TressDocument parent_instance;
  guint n_model_changed;
  guint n_values_seen;
};

G_DEFINE_FINAL_TYPE (TestSubDocument, test_sub_document, TRESS_TYPE_DOCUMENT)

static void
test_sub_document_model_changed (TressDocument *doc)
{
  TestSubDocument *self = TEST_SUB_DOCUMENT (doc);

  self->n_model_changed++;
  self->n_values_seen = tress_test_model_get_n_values (tress_document_get_model (doc));
}

static void
test_sub_document_class_init (TestSubDocumentClass *klass)
{
  TRESS_DOCUMENT_CLASS (klass)->model_changed = test_sub_document_model_changed;
}

static void
test_sub_document_init (TestSubDocument *self)
{
}

static void
test_subclass (void)
{
  g_autofree char *dir = make_folder ("subclass");
  g_autofree char *path = write_test_file (dir, "sub.trsstest", initial_values, 4, NULL);
  g_autoptr (TressDocument) doc = NULL;
  g_autoptr (GError) error = NULL;
  guint32 more[] = { 7, 8, 9, 10, 11, 12 };
  g_autoptr (GBytes) bigger = tress_test_format_build (more, G_N_ELEMENTS (more));
  guint changed = 0;

  tress_document_register_type (tress_test_format.id, TEST_TYPE_SUB_DOCUMENT);
  doc = load_path (path);
  g_assert_true (TEST_IS_SUB_DOCUMENT (doc));
  g_assert_cmpuint (TEST_SUB_DOCUMENT (doc)->n_model_changed, ==, 1);
  g_assert_cmpuint (TEST_SUB_DOCUMENT (doc)->n_values_seen, ==, 4);

  /* Revert builds a new model and says so once. */
  g_signal_connect (doc, "changed", G_CALLBACK (count_cb), &changed);
  write_path (path, bigger);
  g_assert_true (tress_document_revert (doc, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (TEST_SUB_DOCUMENT (doc)->n_model_changed, ==, 2);
  g_assert_cmpuint (TEST_SUB_DOCUMENT (doc)->n_values_seen, ==, 6);
  g_assert_cmpuint (changed, ==, 1);

  tress_document_register_type (tress_test_format.id, TRESS_TYPE_DOCUMENT);
}

/* Saving */

static char *
backup_path (const char *path)
{
  return g_strconcat (path, "~", NULL);
}

static void
test_save_roundtrip (void)
{
  g_autofree char *dir = make_folder ("save");
  g_autofree char *path = write_test_file (dir, "save.trsstest", initial_values, 4, "kept tail");
  g_autofree char *backup = backup_path (path);
  g_autoptr (GBytes) original = read_path (path);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) first = NULL;
  g_autoptr (GBytes) second = NULL;
  g_autoptr (GBytes) backup_bytes = NULL;
  guint modified = 0;

  g_signal_connect (doc, "notify::modified", G_CALLBACK (notify_count_cb), &modified);

  /* Saving without edits writes the very same bytes, and keeps a backup. */
  g_assert_true (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_no_error (error);
  first = read_path (path);
  tress_test_assert_bytes_equal (first, original);
  g_assert_true (g_file_test (backup, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (modified, ==, 0);

  set_value (doc, 1, 200);
  g_assert_cmpuint (modified, ==, 1);
  g_assert_true (tress_document_get_modified (doc));
  g_assert_true (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (modified, ==, 2);
  g_assert_false (tress_document_get_modified (doc));

  /* The new value is on disk at its place, the trailer is kept, the backup
   * holds the previous contents. */
  second = read_path (path);
  g_assert_cmpuint (g_bytes_get_size (second), ==, g_bytes_get_size (original));
  g_assert_cmpuint (((const guint8 *)g_bytes_get_data (second, NULL))[16], ==, 200);
  g_assert_cmpmem ((const char *)g_bytes_get_data (second, NULL) + 28, 9, "kept tail", 9);
  backup_bytes = read_path (backup);
  tress_test_assert_bytes_equal (backup_bytes, original);
  tress_test_assert_bytes_equal (tress_document_get_original_bytes (doc), second);
  g_assert_false (tress_document_changed_on_disk (doc));

  /* Undo leaves the saved state, redo comes back to it. */
  g_assert_true (tress_history_undo (tress_document_get_history (doc)));
  g_assert_true (tress_document_get_modified (doc));
  g_assert_true (tress_history_redo (tress_document_get_history (doc)));
  g_assert_false (tress_document_get_modified (doc));
  g_assert_cmpuint (modified, ==, 4);
}

static void
test_save_as (void)
{
  g_autofree char *dir = make_folder ("save-as");
  g_autofree char *path = write_test_file (dir, "first.trsstest", initial_values, 4, NULL);
  g_autofree char *other = g_build_filename (dir, "second.trsstest", NULL);
  g_autofree char *other_backup = backup_path (other);
  g_autoptr (GBytes) original = read_path (path);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GFile) other_file = g_file_new_for_path (other);
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) reread = NULL;
  g_autoptr (GBytes) still = NULL;
  guint n_file = 0, n_title = 0;

  g_signal_connect (doc, "notify::file", G_CALLBACK (notify_count_cb), &n_file);
  g_signal_connect (doc, "notify::title", G_CALLBACK (notify_count_cb), &n_title);

  set_value (doc, 0, 99);
  g_assert_true (tress_document_save (doc, other_file, FALSE, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_file, ==, 1);
  g_assert_cmpuint (n_title, ==, 1);
  g_assert_cmpstr (tress_document_get_title (doc), ==, "second.trsstest");
  g_assert_true (g_file_equal (tress_document_get_file (doc), other_file));
  g_assert_false (tress_document_get_modified (doc));
  /* A new file has nothing to back up. */
  g_assert_false (g_file_test (other_backup, G_FILE_TEST_EXISTS));

  /* The first file is untouched; the new one reads back with the edit. */
  still = read_path (path);
  tress_test_assert_bytes_equal (still, original);
  reread = load_path (other);
  g_assert_cmpuint (tress_test_model_get_value (model_of (reread), 0), ==, 99);

  /* Plain save now goes to the new file. */
  set_value (doc, 0, 100);
  g_assert_true (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_file, ==, 1);
  g_clear_object (&reread);
  reread = load_path (other);
  g_assert_cmpuint (tress_test_model_get_value (model_of (reread), 0), ==, 100);
  g_assert_true (g_file_test (other_backup, G_FILE_TEST_IS_REGULAR));
}

/* Runs a failing save and checks that nothing on disk moved. */
static void
assert_save_fails (TressDocument *doc, GFile *target, GQuark domain, int code, const char *needle)
{
  GFile *file = target != NULL ? target : tress_document_get_file (doc);
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *backup = backup_path (path);
  gboolean had_backup = g_file_test (backup, G_FILE_TEST_EXISTS);
  g_autoptr (GBytes) before = read_path (path);
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GFile) doc_file = g_object_ref (tress_document_get_file (doc));
  g_autoptr (GError) error = NULL;
  gboolean modified = tress_document_get_modified (doc);

  g_assert_false (tress_document_save (doc, target, FALSE, NULL, &error));
  g_assert_error (error, domain, code);
  if (strstr (error->message, needle) == NULL)
    g_error ("“%s” is not in the error “%s”", needle, error->message);
  g_test_message ("refused as expected: %s", error->message);

  after = read_path (path);
  tress_test_assert_bytes_equal (after, before);
  g_assert_cmpint (g_file_test (backup, G_FILE_TEST_EXISTS), ==, had_backup);
  g_assert_cmpint (tress_document_get_modified (doc), ==, modified);
  g_assert_true (g_file_equal (tress_document_get_file (doc), doc_file));
}

static void
test_save_serializer_failure (void)
{
  g_autofree char *dir = make_folder ("serializer-failure");
  g_autofree char *path = write_test_file (dir, "fail.trsstest", initial_values, 4, NULL);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GError) error = NULL;

  set_value (doc, 3, 40);
  tress_test_format_set_failure (TRESS_TEST_FAILURE_SERIALIZE);
  assert_save_fails (doc, NULL, TRESS_ERROR, TRESS_ERROR_FAILED, "told to fail while serializing");
  tress_test_format_set_failure (TRESS_TEST_FAILURE_NONE);
  g_assert_true (tress_document_get_modified (doc));

  /* Once the writer works again the same edit saves. */
  g_assert_true (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (tress_document_get_modified (doc));
}

static void
test_save_reparse_failure (void)
{
  g_autofree char *dir = make_folder ("reparse-failure");
  g_autofree char *path = write_test_file (dir, "corrupt.trsstest", initial_values, 4, NULL);
  g_autoptr (TressDocument) doc = load_path (path);

  set_value (doc, 0, 5);
  tress_test_format_set_failure (TRESS_TEST_FAILURE_CORRUPT);
  /* The written count is one too high: the reader's complaint is passed on. */
  assert_save_fails (doc, NULL, TRESS_ERROR, TRESS_ERROR_INVALID, "value count");
  tress_test_format_set_failure (TRESS_TEST_FAILURE_NONE);
}

/* The new bytes parse, but written again they are not the same bytes: the
 * save is refused, naming where they first differ (after the 29 bytes of the
 * first write, where the second wrote one "+" more), and nothing is written. */
static void
test_save_unstable (void)
{
  g_autofree char *dir = make_folder ("unstable");
  g_autofree char *path = write_test_file (dir, "unstable.trsstest", initial_values, 4, NULL);
  g_autoptr (TressDocument) doc = load_path (path);

  set_value (doc, 0, 5);
  tress_test_format_set_failure (TRESS_TEST_FAILURE_UNSTABLE);
  assert_save_fails (doc, NULL, TRESS_ERROR, TRESS_ERROR_INVALID,
                     "does not read back the same (first difference at offset 0x1d)");
  tress_test_format_set_failure (TRESS_TEST_FAILURE_NONE);
}

static void
test_save_invalid (void)
{
  g_autofree char *dir = make_folder ("invalid");
  g_autofree char *path = write_test_file (dir, "invalid.trsstest", initial_values, 4, NULL);
  g_autoptr (TressDocument) doc = load_path (path);

  set_value (doc, 2, TRESS_TEST_RESERVED_VALUE);
  assert_save_fails (doc, NULL, TRESS_ERROR, TRESS_ERROR_INVALID, "value 2 (offset 0x14)");
}

/* A file that already breaks a rule can still take edits elsewhere: the
 * errors it had are kept, only errors an edit adds are refused. */
static void
test_save_keeps_old_errors (void)
{
  static const guint32 broken[] = { 1, 2, TRESS_TEST_RESERVED_VALUE, 4 };
  g_autofree char *dir = make_folder ("old-errors");
  g_autofree char *path = write_test_file (dir, "broken.trsstest", broken, 4, NULL);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (TressDocument) again = NULL;
  g_autoptr (GError) error = NULL;

  set_value (doc, 0, 10);
  g_assert_true (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_no_error (error);
  again = load_path (path);
  g_assert_cmpuint (tress_test_model_get_value (model_of (again), 0), ==, 10);

  /* A second broken value is the edit's own: refused, naming it only. */
  set_value (doc, 1, TRESS_TEST_RESERVED_VALUE);
  g_assert_false (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "1 error"));
  g_assert_nonnull (strstr (error->message, "value 1"));
  g_assert_null (strstr (error->message, "value 2"));
}

static void
test_changed_on_disk (void)
{
  g_autofree char *dir = make_folder ("changed-on-disk");
  g_autofree char *path = write_test_file (dir, "shared.trsstest", initial_values, 4, NULL);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GError) error = NULL;
  guint32 theirs[] = { 9, 9, 9, 9 };
  g_autoptr (GBytes) their_bytes = tress_test_format_build (theirs, 4);
  g_autoptr (GBytes) ours = NULL;

  set_value (doc, 0, 50);
  /* Another program writes the file (same size; the contents tell). */
  write_path (path, their_bytes);
  g_assert_true (tress_document_changed_on_disk (doc));
  assert_save_fails (doc, NULL, TRESS_ERROR, TRESS_ERROR_CHANGED_ON_DISK, "changed on disk");

  /* The window asked and the user chose to overwrite. */
  g_assert_true (tress_document_save (doc, NULL, TRUE, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (tress_document_changed_on_disk (doc));
  ours = read_path (path);
  g_assert_cmpuint (((const guint8 *)g_bytes_get_data (ours, NULL))[12], ==, 50);
}

/* Another program rewrites the file with other contents of another size,
 * once after the document was opened and once after it was saved: each save
 * is refused, the file keeps the other program's bytes and gets no backup,
 * and the document stays modified. */
static void
test_changed_on_disk_after_save (void)
{
  g_autofree char *dir = make_folder ("changed-after-save");
  g_autofree char *path = write_test_file (dir, "shared.trsstest", initial_values, 4, NULL);
  g_autofree char *backup = backup_path (path);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GError) error = NULL;
  static const guint32 theirs[] = { 7, 7, 7, 7, 7, 7 };
  static const guint32 later[] = { 8, 8 };
  g_autoptr (GBytes) their_bytes = tress_test_format_build (theirs, G_N_ELEMENTS (theirs));
  g_autoptr (GBytes) later_bytes = tress_test_format_build (later, G_N_ELEMENTS (later));
  g_autoptr (GBytes) on_disk = NULL;

  set_value (doc, 0, 50);
  write_path (path, their_bytes);
  g_assert_false (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_CHANGED_ON_DISK);
  g_clear_error (&error);
  on_disk = read_path (path);
  tress_test_assert_bytes_equal (on_disk, their_bytes);
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));
  g_assert_true (tress_document_get_modified (doc));
  /* Asked again, the answer is the same. */
  g_assert_false (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_CHANGED_ON_DISK);
  g_clear_error (&error);

  /* The user chose to overwrite; then the other program writes again. */
  g_assert_true (tress_document_save (doc, NULL, TRUE, NULL, &error));
  g_assert_no_error (error);
  set_value (doc, 1, 60);
  write_path (path, later_bytes);
  g_assert_false (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_CHANGED_ON_DISK);
  g_assert_nonnull (strstr (error->message, "changed on disk"));
  g_clear_pointer (&on_disk, g_bytes_unref);
  on_disk = read_path (path);
  tress_test_assert_bytes_equal (on_disk, later_bytes);
  g_assert_true (tress_document_get_modified (doc));
}

/* The other program writes between the document's look at the file and its
 * write (tress-race-file.h): the last check, made with the write, refuses;
 * the file keeps the other program's bytes, gets no backup, and the document
 * stays modified and sees the change. */
static void
test_changed_while_saving (void)
{
  g_autofree char *dir = make_folder ("changed-while-saving");
  g_autofree char *path = write_test_file (dir, "raced.trsstest", initial_values, 4, NULL);
  g_autofree char *backup = backup_path (path);
  g_autoptr (GFile) file = tress_race_file_new (path);
  g_autoptr (TressDocument) doc = NULL;
  g_autoptr (GError) error = NULL;
  static const guint32 theirs[] = { 9, 9, 9, 9 };
  g_autoptr (GBytes) their_bytes = tress_test_format_build (theirs, G_N_ELEMENTS (theirs));
  g_autoptr (GBytes) on_disk = NULL;

  doc = tress_document_load (file, NULL, &error);
  g_assert_no_error (error);
  set_value (doc, 0, 50);
  tress_race_file_arm (tress_document_get_file (doc), their_bytes);
  g_assert_false (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_true (tress_race_file_fired (tress_document_get_file (doc)));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_CHANGED_ON_DISK);
  g_assert_nonnull (strstr (error->message, "changed on disk"));
  g_clear_error (&error);
  on_disk = read_path (path);
  tress_test_assert_bytes_equal (on_disk, their_bytes);
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));
  g_assert_true (tress_document_get_modified (doc));
  g_assert_true (tress_document_changed_on_disk (doc));
}

static void
test_touched_on_disk (void)
{
  g_autofree char *dir = make_folder ("touched");
  g_autofree char *path = write_test_file (dir, "touched.trsstest", initial_values, 4, NULL);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) same = read_path (path);

  /* Rewritten with the same bytes and a later time: nothing really changed. */
  write_path (path, same);
  g_assert_cmpint (g_utime (path, &(struct utimbuf){ .actime = 2000000000, .modtime = 2000000000 }),
                   ==, 0);
  g_assert_false (tress_document_changed_on_disk (doc));
  set_value (doc, 1, 21);
  g_assert_true (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_no_error (error);
}

static void
test_removed_on_disk (void)
{
  g_autofree char *dir = make_folder ("removed");
  g_autofree char *path = write_test_file (dir, "gone.trsstest", initial_values, 4, NULL);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_true (tress_document_changed_on_disk (doc));
  g_assert_false (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_CHANGED_ON_DISK);
  g_assert_nonnull (strstr (error->message, "removed"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);
  g_assert_true (tress_document_save (doc, NULL, TRUE, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
}

/* A document made in memory and given a file name it has never read. */
static void
test_new_with_file (void)
{
  g_autofree char *dir = make_folder ("new-with-file");
  g_autofree char *path = g_build_filename (dir, "fresh.trsstest", NULL);
  g_autofree char *taken = write_test_file (dir, "taken.trsstest", initial_values, 1, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFile) taken_file = g_file_new_for_path (taken);
  g_autoptr (TressDocument) doc = NULL;
  g_autoptr (TressDocument) other = NULL;
  g_autoptr (TressDocument) reread = NULL;
  g_autoptr (GError) error = NULL;

  doc = tress_document_new (&tress_test_format, tress_test_model_new (initial_values, 4), file,
                            NULL);
  g_assert_cmpstr (tress_document_get_title (doc), ==, "fresh.trsstest");
  g_assert_false (tress_document_changed_on_disk (doc));
  g_assert_true (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_no_error (error);
  reread = load_path (path);
  g_assert_cmpuint (tress_test_model_get_n_values (model_of (reread)), ==, 4);

  /* The name is taken by a file this document never read: ask first. */
  other = tress_document_new (&tress_test_format, tress_test_model_new (initial_values, 2),
                              taken_file, NULL);
  assert_save_fails (other, NULL, TRESS_ERROR, TRESS_ERROR_CHANGED_ON_DISK, "already exists");
}

/* Where the backup should go there is a folder: GIO cannot make the backup and
 * refuses before touching the file. Real even for root. */
static void
test_save_backup_blocked (void)
{
  g_autofree char *dir = make_folder ("backup-blocked");
  g_autofree char *path = write_test_file (dir, "blocked.trsstest", initial_values, 4, NULL);
  g_autofree char *backup = backup_path (path);
  g_autofree char *inside = g_build_filename (backup, "keep", NULL);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GDir) listing = NULL;
  const char *name;

  g_assert_cmpint (g_mkdir (backup, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (inside, 0755), ==, 0);
  set_value (doc, 0, 77);
  assert_save_fails (doc, NULL, G_IO_ERROR, G_IO_ERROR_CANT_CREATE_BACKUP, "blocked.trsstest");

  /* No temporary file is left behind. */
  listing = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (listing)) != NULL)
    g_assert_true (g_str_has_prefix (name, "blocked.trsstest"));
}

/* The write itself fails half-way (a full disk, a quota; here the process's
 * file size limit): the file on disk keeps its bytes, no backup is made and no
 * temporary file is left. GLib's g_file_replace_contents() would rename the
 * partly written file into place. */
static void
test_save_write_fails (void)
{
  g_autofree char *dir = make_folder ("write-fails");
  g_autofree guint32 *values = g_new (guint32, 8192);
  g_autofree char *path = NULL;
  g_autofree char *backup = NULL;
  g_autoptr (TressDocument) doc = NULL;
  g_autoptr (GBytes) before = NULL;
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) listing = NULL;
  struct rlimit old, small;
  const char *name;
  gboolean saved;

  for (guint i = 0; i < 8192; i++)
    values[i] = i;
  path = write_test_file (dir, "big.trsstest", values, 8192, NULL);
  backup = backup_path (path);
  before = read_path (path);
  doc = load_path (path);
  set_value (doc, 0, 99);

  /* Writes past 4 KiB fail (EFBIG) while the limit holds. */
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old), ==, 0);
  small = old;
  small.rlim_cur = 4096;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);
  saved = tress_document_save (doc, NULL, FALSE, NULL, &error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old), ==, 0);

  g_assert_false (saved);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "big.trsstest"));
  g_assert_true (tress_document_get_modified (doc));
  after = read_path (path);
  tress_test_assert_bytes_equal (after, before);
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));
  listing = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (listing)) != NULL)
    g_assert_cmpstr (name, ==, "big.trsstest");
}

/* The backup is the replaced file itself, linked under "NAME~" (not a copy):
 * the same inode, so it keeps the old file's modification time. */
static void
test_save_backup_is_old_file (void)
{
  g_autofree char *dir = make_folder ("backup-link");
  g_autofree char *path = write_test_file (dir, "linked.trsstest", initial_values, 4, NULL);
  g_autofree char *backup = backup_path (path);
  g_autoptr (TressDocument) doc = NULL;
  g_autoptr (GError) error = NULL;
  struct stat old, kept;

  g_assert_cmpint (g_utime (path, &(struct utimbuf){ .actime = 1000000000, .modtime = 1000000000 }),
                   ==, 0);
  g_assert_cmpint (stat (path, &old), ==, 0);
  doc = load_path (path);
  set_value (doc, 0, 9);
  g_assert_true (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (stat (backup, &kept), ==, 0);
  g_assert_cmpuint (kept.st_ino, ==, old.st_ino);
  g_assert_cmpint (kept.st_mtime, ==, 1000000000);
}

/* A save removes the temporary files an earlier save of the same file left
 * (".NAME.tress-" and six letters or digits, no save holding them), and
 * nothing else: not a name one letter shorter or longer, not one with another
 * character, not another file's. */
static void
test_save_stale_temps (void)
{
  static const char *const kept[] = {
    ".stale.trsstest.tress-Ab3xY",  ".stale.trsstest.tress-Ab3xY9Z", ".stale.trsstest.tress-Ab3x_9",
    ".other.trsstest.tress-Ab3xY9", "stale.trsstest.tress-Ab3xY9Z",
  };
  g_autofree char *dir = make_folder ("stale-temps");
  g_autofree char *path = write_test_file (dir, "stale.trsstest", initial_values, 4, NULL);
  g_autofree char *stale = g_build_filename (dir, ".stale.trsstest.tress-Ab3xY9", NULL);
  g_autoptr (GBytes) junk = g_bytes_new_static ("junk", 4);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GError) error = NULL;

  write_path (stale, junk);
  for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
    {
      g_autofree char *p = g_build_filename (dir, kept[i], NULL);
      write_path (p, junk);
    }
  set_value (doc, 0, 6);
  g_assert_true (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
    {
      g_autofree char *p = g_build_filename (dir, kept[i], NULL);
      g_autoptr (GBytes) still = NULL;

      if (!g_file_test (p, G_FILE_TEST_IS_REGULAR))
        g_error ("“%s” was removed", kept[i]);
      still = read_path (p);
      tress_test_assert_bytes_equal (still, junk);
    }
}

/* Saving through a symbolic link writes the file it points at, atomically, and
 * keeps the link. */
static void
test_save_through_symlink (void)
{
  g_autofree char *dir = make_folder ("symlink");
  g_autofree char *path = write_test_file (dir, "real.trsstest", initial_values, 4, NULL);
  g_autofree char *link = g_build_filename (dir, "link.trsstest", NULL);
  g_autoptr (TressDocument) doc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *target = NULL;
  g_autoptr (TressDocument) again = NULL;

  g_assert_cmpint (symlink ("real.trsstest", link), ==, 0);
  doc = load_path (link);
  set_value (doc, 1, 42);
  g_assert_true (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_no_error (error);
  target = g_file_read_link (link, NULL);
  g_assert_cmpstr (target, ==, "real.trsstest");
  again = load_path (path);
  g_assert_cmpuint (tress_test_model_get_value (model_of (again), 1), ==, 42);
  /* The backup sits beside the file that was replaced. */
  {
    g_autofree char *b = backup_path (path);
    g_assert_true (g_file_test (b, G_FILE_TEST_IS_REGULAR));
  }
}

/* Save as into a "folder" that is a file: the path cannot be created. */
static void
test_save_parent_is_file (void)
{
  g_autofree char *dir = make_folder ("parent-is-file");
  g_autofree char *path = write_test_file (dir, "doc.trsstest", initial_values, 4, NULL);
  g_autofree char *not_dir = write_test_file (dir, "plain-file", initial_values, 1, NULL);
  g_autofree char *target = g_build_filename (not_dir, "child.trsstest", NULL);
  g_autoptr (GFile) target_file = g_file_new_for_path (target);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GBytes) not_dir_before = read_path (not_dir);
  g_autoptr (GBytes) not_dir_after = NULL;
  g_autoptr (GError) error = NULL;

  set_value (doc, 0, 8);
  g_assert_false (tress_document_save (doc, target_file, FALSE, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY);
  g_assert_nonnull (strstr (error->message, "child.trsstest"));
  g_assert_true (tress_document_get_modified (doc));
  g_assert_cmpstr (tress_document_get_title (doc), ==, "doc.trsstest");
  not_dir_after = read_path (not_dir);
  tress_test_assert_bytes_equal (not_dir_after, not_dir_before);
}

/* A folder the user may not write to. Root may write anywhere, so the save runs
 * in a subprocess that first drops to an unprivileged user. */
static void
test_save_read_only_folder (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *backup = NULL;
  g_autoptr (GBytes) before = NULL;
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GDir) listing = NULL;
  g_autofree char *note = NULL;
  g_autofree char *why = NULL;
  const char *name;

  if (g_test_subprocess ())
    {
      g_autoptr (TressDocument) doc = NULL;
      g_autoptr (GError) error = NULL;

      path = g_strdup (g_getenv ("TRESS_TEST_READ_ONLY_FILE"));
      if (geteuid () == 0
          && (setgroups (0, NULL) != 0 || setgid (65534) != 0 || setuid (65534) != 0))
        {
          /* Still root: leave a note for the parent and stop here. */
          g_assert_true (g_file_set_contents (g_getenv ("TRESS_TEST_READ_ONLY_NOTE"),
                                              g_strerror (errno), -1, NULL));
          return;
        }
      doc = load_path (path);
      set_value (doc, 0, 1234);
      g_assert_false (tress_document_save (doc, NULL, FALSE, NULL, &error));
      /* The new file cannot be created beside the old one, and a file is never
       * rewritten in place (a failure or a kill half-way would lose it): the
       * save stops before touching anything. */
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
      g_assert_true (tress_document_get_modified (doc));
      g_print ("refused: %s\n", error->message);
      return;
    }

  dir = make_folder ("read-only");
  path = write_test_file (dir, "locked.trsstest", initial_values, 4, NULL);
  backup = backup_path (path);
  before = read_path (path);
  /* The file itself may be written (it could be rewritten in place), the
   * folder may not. */
  g_assert_cmpint (g_chmod (tress_test_tmpdir (), 0711), ==, 0);
  g_assert_cmpint (g_chmod (path, 0666), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0555), ==, 0);
  note = g_strdup (g_getenv ("TRESS_TEST_READ_ONLY_NOTE"));
  g_assert_cmpstr (path, ==, g_getenv ("TRESS_TEST_READ_ONLY_FILE"));

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
  g_test_trap_assert_passed ();
  if (g_file_get_contents (note, &why, NULL, NULL))
    {
      g_autofree char *msg = g_strdup_printf ("cannot drop root privileges here (%s), so no "
                                              "folder is read-only",
                                              why);
      g_test_skip (msg);
      return;
    }
  /* (g_print() writes the quotes in the locale's charset.) */
  g_test_trap_assert_stdout ("*refused: Could not save *locked.trsstest*: *");

  after = read_path (path);
  tress_test_assert_bytes_equal (after, before);
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));
  listing = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (listing)) != NULL)
    g_assert_cmpstr (name, ==, "locked.trsstest");
}

static void
save_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static gboolean
save_async_and_wait (TressDocument *doc, GFile *file, gboolean overwrite, GError **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  tress_document_save_async (doc, file, overwrite, NULL, save_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return tress_document_save_finish (doc, result, error);
}

static void
test_save_async (void)
{
  g_autofree char *dir = make_folder ("save-async");
  g_autofree char *path = write_test_file (dir, "async.trsstest", initial_values, 4, NULL);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GBytes) on_disk = NULL;
  g_autoptr (GBytes) after = NULL;

  set_value (doc, 1, 11);
  g_assert_true (save_async_and_wait (doc, NULL, FALSE, &error));
  g_assert_no_error (error);
  g_assert_false (tress_document_get_modified (doc));

  /* An injected failure comes back through _finish. */
  set_value (doc, 1, 12);
  on_disk = read_path (path);
  tress_test_format_set_failure (TRESS_TEST_FAILURE_CORRUPT);
  g_assert_false (save_async_and_wait (doc, NULL, FALSE, &error));
  tress_test_format_set_failure (TRESS_TEST_FAILURE_NONE);
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_INVALID);
  g_clear_error (&error);
  after = read_path (path);
  tress_test_assert_bytes_equal (after, on_disk);
  g_assert_true (tress_document_get_modified (doc));

  /* An edit made while the save runs is not on disk: still modified after. */
  tress_document_save_async (doc, NULL, FALSE, NULL, save_done, &result);
  set_value (doc, 2, 13);
  /* A second save while one runs is refused. */
  g_assert_false (tress_document_save (doc, NULL, FALSE, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PENDING);
  g_clear_error (&error);
  /* So is a revert, which would swap the model under it. */
  g_assert_false (tress_document_revert (doc, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PENDING);
  g_clear_error (&error);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (tress_document_save_finish (doc, result, &error));
  g_assert_no_error (error);
  g_assert_true (tress_document_get_modified (doc));
  g_clear_pointer (&after, g_bytes_unref);
  after = read_path (path);
  g_assert_cmpuint (((const guint8 *)g_bytes_get_data (after, NULL))[16], ==, 12);
  g_assert_cmpuint (((const guint8 *)g_bytes_get_data (after, NULL))[20], ==, 3);
  g_assert_false (tress_document_changed_on_disk (doc));
}

/* Revert, problems, signals */

static void
test_revert (void)
{
  g_autofree char *dir = make_folder ("revert");
  g_autofree char *path = write_test_file (dir, "revert.trsstest", initial_values, 4, NULL);
  g_autoptr (TressDocument) doc = load_path (path);
  g_autoptr (GError) error = NULL;
  TressHistory *history = tress_document_get_history (doc);
  g_autoptr (GBytes) bad = NULL;
  guint modified = 0, changed = 0;

  g_signal_connect (doc, "notify::modified", G_CALLBACK (notify_count_cb), &modified);
  g_signal_connect (doc, "changed", G_CALLBACK (count_cb), &changed);
  set_value (doc, 0, 1000);
  set_value (doc, 1, 1000);
  g_assert_cmpuint (changed, ==, 2);
  g_assert_cmpuint (modified, ==, 1);

  g_assert_true (tress_document_revert (doc, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changed, ==, 3);
  g_assert_cmpuint (modified, ==, 2);
  g_assert_false (tress_document_get_modified (doc));
  g_assert_false (tress_history_can_undo (history));
  g_assert_cmpuint (tress_test_model_get_value (model_of (doc), 0), ==, 1);
  g_assert_cmpuint (tress_test_model_get_value (model_of (doc), 1), ==, 2);

  /* Edits after a revert apply to the new model. */
  set_value (doc, 3, 44);
  g_assert_cmpuint (tress_test_model_get_value (model_of (doc), 3), ==, 44);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (tress_test_model_get_value (model_of (doc), 3), ==, 4);

  /* A file that no longer parses leaves the document as it was. */
  g_clear_pointer (&bad, g_bytes_unref);
  bad = g_bytes_new_static ("TRSSTEST\xff\xff\xff\xff", 12);
  write_path (path, bad);
  g_assert_false (tress_document_revert (doc, NULL, &error));
  g_assert_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT);
  g_assert_cmpuint (tress_test_model_get_n_values (model_of (doc)), ==, 4);
  g_assert_true (tress_history_can_redo (history));
}

static void
test_problems (void)
{
  guint32 values[] = { 1, TRESS_TEST_RESERVED_VALUE, 70000 };
  g_autoptr (GBytes) bytes = tress_test_format_build (values, 3);
  g_autoptr (TressDocument) doc = tress_document_new_from_bytes (bytes, "problems", NULL);
  TressHistory *history = tress_document_get_history (doc);
  GPtrArray *problems = tress_document_get_problems (doc);
  const TressProblem *p;

  g_assert_cmpuint (problems->len, ==, 2);
  g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_ERROR), ==, 1);
  p = g_ptr_array_index (problems, 0);
  g_assert_cmpstr (p->location, ==, "value 1");
  g_assert_cmpuint (p->offset, ==, 16);
  /* Cached while nothing changes. */
  g_assert_true (tress_document_get_problems (doc) == problems);

  set_value (doc, 1, 5);
  problems = tress_document_get_problems (doc);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpuint (tress_problem_list_count (problems, TRESS_SEVERITY_ERROR), ==, 0);
  set_value (doc, 2, 6);
  g_assert_cmpuint (tress_document_get_problems (doc)->len, ==, 0);

  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (tress_document_get_problems (doc)->len, ==, 1);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (tress_document_get_problems (doc)->len, ==, 2);

  /* The format's fix runs as one undoable step. */
  g_assert_cmpuint (tress_test_format.fix_all (model_of (doc), history, NULL), ==, 1);
  g_assert_cmpuint (
      tress_problem_list_count (tress_document_get_problems (doc), TRESS_SEVERITY_ERROR), ==, 0);
  g_assert_cmpstr (tress_history_get_undo_label (history), ==, "Fix reserved values");
}

static void
applied_problems_cb (TressHistory *history, TressCommand *cmd, gboolean undo, gpointer data)
{
  TressDocument *doc = data;
  guint *seen = g_object_get_data (G_OBJECT (doc), "seen");

  seen[seen[0] + 1] = tress_document_get_problems (doc)->len;
  seen[0]++;
}

/* Views refreshing on the history's "applied" (which comes before "changed")
 * get the problems of the model after the command, also inside a group. */
static void
test_problems_on_applied (void)
{
  guint32 values[] = { 1, TRESS_TEST_RESERVED_VALUE, 70000 };
  g_autoptr (GBytes) bytes = tress_test_format_build (values, 3);
  g_autoptr (TressDocument) doc = tress_document_new_from_bytes (bytes, "problems", NULL);
  TressHistory *history = tress_document_get_history (doc);
  guint seen[8] = { 0 };

  g_assert_cmpuint (tress_document_get_problems (doc)->len, ==, 2);
  g_object_set_data (G_OBJECT (doc), "seen", seen);
  g_signal_connect (history, "applied", G_CALLBACK (applied_problems_cb), doc);

  set_value (doc, 1, 5);
  g_assert_cmpuint (seen[0], ==, 1);
  g_assert_cmpuint (seen[1], ==, 1);

  tress_history_begin_group (history, "Two values");
  set_value (doc, 2, 6);
  g_assert_cmpuint (seen[0], ==, 2);
  g_assert_cmpuint (seen[2], ==, 0);
  set_value (doc, 0, 70001);
  g_assert_cmpuint (seen[0], ==, 3);
  g_assert_cmpuint (seen[3], ==, 1);
  tress_history_end_group (history);

  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (seen[0], ==, 5);
  g_assert_cmpuint (seen[4], ==, 0);
  g_assert_cmpuint (seen[5], ==, 1);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (seen[0], ==, 6);
  g_assert_cmpuint (seen[6], ==, 2);
}

static void
test_signals (void)
{
  g_autoptr (GBytes) bytes = tress_test_format_build (initial_values, 4);
  g_autoptr (TressDocument) doc = tress_document_new_from_bytes (bytes, "signals", NULL);
  TressHistory *history = tress_document_get_history (doc);
  TressHistory *from_property = NULL;
  guint changed = 0, modified = 0, title = 0;
  gboolean value = FALSE;

  g_object_get (doc, "history", &from_property, NULL);
  g_assert_true (from_property == history);
  g_object_unref (from_property);

  g_signal_connect (doc, "changed", G_CALLBACK (count_cb), &changed);
  g_signal_connect (doc, "notify::modified", G_CALLBACK (notify_count_cb), &modified);
  g_signal_connect (doc, "notify::title", G_CALLBACK (notify_count_cb), &title);

  set_value (doc, 0, 10);
  g_object_get (doc, "modified", &value, NULL);
  g_assert_true (value);
  set_value (doc, 0, 11); /* merged, still modified */
  g_assert_cmpuint (changed, ==, 2);
  g_assert_cmpuint (modified, ==, 1);
  g_assert_cmpuint (tress_history_get_n_undo (history), ==, 1);

  tress_history_begin_group (history, "Two values");
  set_value (doc, 1, 20);
  set_value (doc, 2, 30);
  tress_history_end_group (history);
  g_assert_cmpuint (modified, ==, 1);

  changed = 0;
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (changed, ==, 1);
  g_assert_true (tress_history_undo (history));
  g_assert_cmpuint (changed, ==, 2);
  g_assert_cmpuint (modified, ==, 2);
  g_assert_true (tress_history_redo (history));
  g_assert_cmpuint (changed, ==, 3);
  g_assert_cmpuint (modified, ==, 3);
  g_assert_cmpuint (title, ==, 0);
}

static void
test_finalize (void)
{
  g_autofree char *dir = make_folder ("finalize");
  g_autofree char *path = write_test_file (dir, "final.trsstest", initial_values, 4, NULL);
  TressDocument *doc = load_path (path);
  TressHistory *history = tress_document_get_history (doc);

  g_object_add_weak_pointer (G_OBJECT (history), (gpointer *)&history);
  set_value (doc, 0, 1);
  g_assert_true (tress_document_save (doc, NULL, FALSE, NULL, NULL));
  g_assert_finalize_object (doc);
  g_assert_null (history);
}

/* Every sample a registered format reads opens through the document layer and
 * saves (with all of save's checks) to the very same bytes. */
static void
test_samples_roundtrip (void)
{
  g_autofree char *sums_path = tress_test_sample_path ("SHA256SUMS");
  g_autofree char *sums = NULL;
  g_autofree char *dir = NULL;
  g_auto (GStrv) lines = NULL;
  guint n_done = 0;

  if (sums_path == NULL)
    return;
  g_assert_true (g_file_get_contents (sums_path, &sums, NULL, NULL));
  dir = make_folder ("samples");
  lines = g_strsplit (sums, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *rel = strstr (lines[i], "  ");
      g_autofree char *path = NULL;
      g_autofree char *base = NULL;
      g_autofree char *out = NULL;
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (GBytes) saved = NULL;
      g_autoptr (GFile) out_file = NULL;
      g_autoptr (TressDocument) doc = NULL;
      g_autoptr (GError) error = NULL;
      const TressFormat *format;

      if (rel == NULL)
        continue;
      rel += 2;
      path = tress_test_sample_path (rel);
      if (path == NULL)
        return;
      bytes = read_path (path);
      format = tress_format_detect (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL);
      if (format == NULL || format->parse == NULL || format->serialize == NULL)
        {
          g_test_message ("%s: no registered format reads it yet", rel);
          continue;
        }

      doc = load_path (path);
      g_assert_true (tress_document_get_format (doc) == format);
      base = g_path_get_basename (rel);
      out = g_build_filename (dir, base, NULL);
      out_file = g_file_new_for_path (out);
      if (!tress_document_save (doc, out_file, FALSE, NULL, &error))
        g_error ("%s: saving without edits failed: %s", rel, error->message);
      saved = read_path (out);
      tress_test_assert_bytes_equal (saved, bytes);
      g_test_message ("%s: %s, saved to the same %" G_GSIZE_FORMAT " bytes", rel,
                      format->display_name, g_bytes_get_size (bytes));
      n_done++;
    }
  if (n_done == 0)
    g_test_skip ("no registered format reads any sample yet");
}

/* Loads that report their progress, and stop at once when cancelled: a Yaz0
 * BFRES that inflates to 128 MiB (made of back-references), cancelled while
 * it decompresses. */
static GBytes *
inflating_bfres (guint32 size)
{
  GByteArray *a = g_byte_array_new ();
  static const guint8 header[16] = { 'Y', 'a', 'z', '0' };
  static const guint8 first[9] = { 0xFF, 'F', 'R', 'E', 'S', 0, 3, 0, 4 };
  static const guint8 group[25]
      = { 0x00, 0x00, 0x07, 0xFF, 0x00, 0x07, 0xFF, 0x00, 0x07, 0xFF, 0x00, 0x07, 0xFF,
          0x00, 0x07, 0xFF, 0x00, 0x07, 0xFF, 0x00, 0x07, 0xFF, 0x00, 0x07, 0xFF };
  guint64 made = 8;

  g_byte_array_append (a, header, sizeof header);
  a->data[4] = size >> 24, a->data[5] = size >> 16, a->data[6] = size >> 8, a->data[7] = size;
  g_byte_array_append (a, first, sizeof first);
  while (made < size)
    {
      g_byte_array_append (a, group, sizeof group);
      made += 8 * 0x111;
    }
  return g_byte_array_free_to_bytes (a);
}

static void
test_load_progress_cancel (void)
{
  g_autofree char *dir = make_folder ("progress");
  g_autofree char *path = g_build_filename (dir, "inflating.sbfres", NULL);
  g_autoptr (GBytes) bytes = inflating_bfres (128u * 1024 * 1024);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (TressProgress) progress = tress_progress_new (cancellable);
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TressDocument) doc = NULL;
  const char *phase = NULL;
  guint64 done = 0, total = 0;
  TressProgressUnit unit;
  gint64 t0;

  g_assert_true (
      g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  tress_document_load_with_progress_async (file, progress, NULL, load_done, &result);
  /* The first megabytes come out, reported. */
  TRESS_TEST_WAIT_FOR ((tress_progress_get (progress, &phase, &done, &total, &unit),
                        result != NULL || (g_strcmp0 (phase, "Decompressing") == 0 && done > 0)));
  g_assert_null (result);
  g_assert_cmpuint (total, ==, 128u * 1024 * 1024);
  g_assert_cmpint (unit, ==, TRESS_PROGRESS_BYTES);
  t0 = g_get_monotonic_time ();
  g_cancellable_cancel (cancellable);
  TRESS_TEST_WAIT_FOR (result != NULL);
  g_test_message ("stopped %.1f ms after the cancel, at %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                  " bytes",
                  (g_get_monotonic_time () - t0) / 1000.0, done, total);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, G_USEC_PER_SEC / 2);
  doc = tress_document_load_finish (result, &error);
  g_assert_null (doc);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  tress_progress_get (progress, &phase, &done, &total, NULL);
  g_assert_cmpuint (done, <, total);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  tress_test_format_register ();
  /* Where the read-only folder test and its subprocess meet, set before any
   * thread starts (setenv is not thread-safe). */
  if (!g_test_subprocess ())
    {
      g_autofree char *file
          = g_build_filename (tress_test_tmpdir (), "read-only", "locked.trsstest", NULL);
      g_autofree char *note = g_build_filename (tress_test_tmpdir (), "read-only-note", NULL);

      g_setenv ("TRESS_TEST_READ_ONLY_FILE", file, TRUE);
      g_setenv ("TRESS_TEST_READ_ONLY_NOTE", note, TRUE);
    }

  g_test_add_func ("/document/new-from-bytes", test_new_from_bytes);
  g_test_add_func ("/document/problems-on-applied", test_problems_on_applied);
  g_test_add_func ("/document/load", test_load);
  g_test_add_func ("/document/load-async", test_load_async);
  g_test_add_func ("/document/load-errors", test_load_errors);
  g_test_add_func ("/document/format-by-content", test_format_by_content);
  g_test_add_func ("/document/subclass", test_subclass);
  g_test_add_func ("/document/save/roundtrip", test_save_roundtrip);
  g_test_add_func ("/document/save/save-as", test_save_as);
  g_test_add_func ("/document/save/serializer-failure", test_save_serializer_failure);
  g_test_add_func ("/document/save/reparse-failure", test_save_reparse_failure);
  g_test_add_func ("/document/save/unstable", test_save_unstable);
  g_test_add_func ("/document/save/invalid", test_save_invalid);
  g_test_add_func ("/document/save/keeps-old-errors", test_save_keeps_old_errors);
  g_test_add_func ("/document/save/changed-on-disk", test_changed_on_disk);
  g_test_add_func ("/document/save/changed-on-disk-after-save", test_changed_on_disk_after_save);
  g_test_add_func ("/document/save/changed-while-saving", test_changed_while_saving);
  g_test_add_func ("/document/save/touched-on-disk", test_touched_on_disk);
  g_test_add_func ("/document/save/removed-on-disk", test_removed_on_disk);
  g_test_add_func ("/document/save/new-with-file", test_new_with_file);
  g_test_add_func ("/document/save/backup-blocked", test_save_backup_blocked);
  g_test_add_func ("/document/save/parent-is-file", test_save_parent_is_file);
  g_test_add_func ("/document/save/write-fails", test_save_write_fails);
  g_test_add_func ("/document/save/backup-is-old-file", test_save_backup_is_old_file);
  g_test_add_func ("/document/save/stale-temps", test_save_stale_temps);
  g_test_add_func ("/document/save/through-symlink", test_save_through_symlink);
  g_test_add_func ("/document/save/read-only-folder", test_save_read_only_folder);
  g_test_add_func ("/document/save/async", test_save_async);
  g_test_add_func ("/document/revert", test_revert);
  g_test_add_func ("/document/problems", test_problems);
  g_test_add_func ("/document/signals", test_signals);
  g_test_add_func ("/document/finalize", test_finalize);
  g_test_add_func ("/document/samples-roundtrip", test_samples_roundtrip);
  g_test_add_func ("/document/load-progress-cancel", test_load_progress_cancel);

  return g_test_run ();
}
