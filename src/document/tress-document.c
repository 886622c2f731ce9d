/* tress-document.c
 *
 * The history's target is the model (what tress_document_get_model() returns),
 * so commands built by the formats layer apply to documents unchanged.
 *
 * Threads: loading reads and parses in a GTask thread and builds the document
 * back in the caller's context. Saving serializes in the caller's thread (the
 * model belongs to it), then parses the new bytes again, validates them, checks
 * the file on disk and replaces it in a GTask thread, and marks the history
 * saved back in the caller's context.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-document.h"

#include <glib/gi18n-lib.h>

#include "core/tress-file.h"
#include "core/tress-progress.h"
#include "tress-document-private.h"

#include <string.h>

/* Larger files are refused before anything is read: no format here comes near. */
#define MAX_FILE_SIZE TRESS_FILE_MAX_SIZE

/* clang-format off */
#define DISK_ATTRIBUTES \
  G_FILE_ATTRIBUTE_STANDARD_TYPE "," \
  G_FILE_ATTRIBUTE_STANDARD_SIZE "," \
  G_FILE_ATTRIBUTE_TIME_MODIFIED "," \
  G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC "," \
  G_FILE_ATTRIBUTE_TIME_CHANGED "," \
  G_FILE_ATTRIBUTE_TIME_CHANGED_USEC "," \
  G_FILE_ATTRIBUTE_UNIX_INODE "," \
  G_FILE_ATTRIBUTE_ETAG_VALUE
/* clang-format on */

/* What the file on disk looked like when it was read or last written. The inode
 * catches a file replaced by renaming (as most programs save), the change time
 * a rewrite in place; timestamps are only as fine as the kernel's clock tick,
 * so a same-size rewrite in place within one tick goes unnoticed. */
typedef struct
{
  gboolean known;
  guint64 mtime;
  guint32 mtime_usec;
  guint64 ctime;
  guint32 ctime_usec;
  guint64 inode;
  goffset size;
  char *etag;
} DiskState;

typedef struct
{
  const TressFormat *format;
  gpointer model;
  GFile *file;
  GBytes *original_bytes; /* as read or last saved */
  char *display_name;
  char *title;
  TressHistory *history;
  GPtrArray *problems; /* NULL when stale */
  DiskState disk;
  /* Bumped on every history change, to tell whether a save wrote the current state. */
  guint64 generation;
  gboolean saving;
  guint model_holds; /* a worker reads the model: no revert */
} TressDocumentPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (TressDocument, tress_document, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_FORMAT,
  PROP_MODEL,
  PROP_FILE,
  PROP_ORIGINAL_BYTES,
  PROP_DISPLAY_NAME,
  PROP_TITLE,
  PROP_MODIFIED,
  PROP_HISTORY,
  PROP_SAVING,
  N_PROPS
};

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* The subclass registry */

G_LOCK_DEFINE_STATIC (types);
static GHashTable *types; /* format id → GType */

void
tress_document_register_type (const char *format_id, GType type)
{
  g_return_if_fail (format_id != NULL);
  g_return_if_fail (g_type_is_a (type, TRESS_TYPE_DOCUMENT));

  G_LOCK (types);
  if (types == NULL)
    types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_insert (types, g_strdup (format_id), GSIZE_TO_POINTER (type));
  G_UNLOCK (types);
}

static GType
lookup_type (const TressFormat *format)
{
  GType type = TRESS_TYPE_DOCUMENT;

  G_LOCK (types);
  if (types != NULL && format->id != NULL)
    {
      gpointer found = g_hash_table_lookup (types, format->id);
      if (found != NULL)
        type = GPOINTER_TO_SIZE (found);
    }
  G_UNLOCK (types);
  return type;
}

/* Disk state */

static void
disk_state_clear (DiskState *state)
{
  g_clear_pointer (&state->etag, g_free);
  state->known = FALSE;
}

static void
disk_state_set (DiskState *state, GFileInfo *info)
{
  disk_state_clear (state);
  if (info == NULL)
    return;
  state->known = TRUE;
  state->mtime = g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED);
  state->mtime_usec = g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC);
  state->ctime = g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_CHANGED);
  state->ctime_usec = g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_TIME_CHANGED_USEC);
  state->inode = g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_UNIX_INODE);
  state->size = g_file_info_get_size (info);
  state->etag = g_strdup (g_file_info_get_etag (info));
}

static gboolean
disk_state_matches (const DiskState *state, GFileInfo *info)
{
  if (!state->known)
    return FALSE;
  if (g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED) != state->mtime
      || g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC)
             != state->mtime_usec
      || g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_CHANGED) != state->ctime
      || g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_TIME_CHANGED_USEC)
             != state->ctime_usec
      || g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_UNIX_INODE) != state->inode
      || g_file_info_get_size (info) != state->size)
    return FALSE;
  return g_strcmp0 (g_file_info_get_etag (info), state->etag) == 0;
}

static void
disk_state_copy (DiskState *dest, const DiskState *src)
{
  disk_state_clear (dest);
  *dest = *src;
  dest->etag = g_strdup (src->etag);
}

/* Whether @file still holds @expected, as recorded in @state. When the metadata
 * differs the contents are compared, so a file touched but not changed is not
 * reported. A file that vanished counts as changed; one that was never seen
 * (a new document given a file name) may be created, but if it exists and its
 * contents are unknown it counts as changed. Sets *@info_out to the current
 * info when the file exists. */
static gboolean
file_changed_since (GFile *file, const DiskState *state, GBytes *expected,
                    GCancellable *cancellable, GFileInfo **info_out)
{
  g_autoptr (GFileInfo) info = NULL;
  g_autoptr (GBytes) now = NULL;
  gboolean changed;

  info = g_file_query_info (file, DISK_ATTRIBUTES, G_FILE_QUERY_INFO_NONE, cancellable, NULL);
  if (info == NULL)
    return state->known;
  if (disk_state_matches (state, info))
    changed = FALSE;
  else if (expected == NULL || g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR
           || g_file_info_get_size (info) != (goffset)g_bytes_get_size (expected))
    changed = TRUE;
  else
    {
      now = g_file_load_bytes (file, cancellable, NULL, NULL);
      changed = now == NULL || !g_bytes_equal (now, expected);
    }
  if (info_out != NULL)
    *info_out = g_steal_pointer (&info);
  return changed;
}

/* Reading */

static char *
file_display_name (GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *parse_name = NULL;

  if (path != NULL)
    return g_filename_display_basename (path);
  parse_name = g_file_get_parse_name (file);
  return g_path_get_basename (parse_name);
}

static char *
file_display_path (GFile *file)
{
  return g_file_get_parse_name (file);
}

/* The contents of @file, about @size bytes (it may change while read; never
 * more than MAX_FILE_SIZE), read a piece at a time: the progress of this
 * thread sees the bytes come, and a cancellation stops the read at once. */
static GBytes *
read_contents (GFile *file, goffset size, GCancellable *cancellable, GError **error)
{
  const gsize chunk = 1024 * 1024;
  g_autoptr (GFileInputStream) in = NULL;
  /* One byte more than announced, to see a file that grew. */
  gsize cap = MIN ((gsize)MAX (size, 0), (gsize)MAX_FILE_SIZE) + 1, len = 0;
  g_autofree guint8 *buf = NULL;

  in = g_file_read (file, cancellable, error);
  if (in == NULL)
    return NULL;
  /* TRANSLATORS: a phase of opening a file, shown with a progress bar */
  tress_progress_phase (N_ ("Reading"), (guint64)MAX (size, 0), TRESS_PROGRESS_BYTES);
  buf = g_malloc (cap);
  for (;;)
    {
      gssize n;

      if (len == cap)
        {
          if (cap > (gsize)MAX_FILE_SIZE)
            {
              g_set_error (
                  error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                  _ ("it grew past the %" G_GSIZE_FORMAT " bytes Tress opens while it was read"),
                  (gsize)MAX_FILE_SIZE);
              return NULL;
            }
          cap = MIN (2 * cap, (gsize)MAX_FILE_SIZE + 1);
          buf = g_realloc (buf, cap);
        }
      n = g_input_stream_read (G_INPUT_STREAM (in), buf + len, MIN (chunk, cap - len), cancellable,
                               error);
      if (n < 0)
        return NULL;
      if (n == 0)
        break;
      len += (gsize)n;
      if (!tress_progress_advance ((guint64)n, error))
        return NULL;
    }
  return g_bytes_new_take (len + 1 < cap ? g_realloc (g_steal_pointer (&buf), MAX (len, 1))
                                         : g_steal_pointer (&buf),
                           len);
}

/* Reads @file (bounded: regular files up to MAX_FILE_SIZE), with its disk state. */
static GBytes *
read_file (GFile *file, GFileInfo **info_out, GCancellable *cancellable, GError **error)
{
  g_autoptr (GFileInfo) info = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *where = file_display_path (file);
  GError *local_error = NULL;

  info = g_file_query_info (file, DISK_ATTRIBUTES, G_FILE_QUERY_INFO_NONE, cancellable,
                            &local_error);
  if (info == NULL)
    {
      g_propagate_prefixed_error (error, local_error, _ ("Could not open “%s”: "), where);
      return NULL;
    }
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _ ("Could not open “%s”: it is not a regular file"), where);
      return NULL;
    }
  if (g_file_info_get_size (info) > MAX_FILE_SIZE)
    {
      g_autofree char *size
          = g_format_size_full ((guint64)g_file_info_get_size (info), G_FORMAT_SIZE_LONG_FORMAT);
      g_autofree char *limit = g_format_size_full (MAX_FILE_SIZE, G_FORMAT_SIZE_LONG_FORMAT);

      /* Translators: sizes as "5.4 GB (5,368,709,120 bytes)" */
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                   _ ("Could not open “%s”: it holds %s, more than the %s Tress opens"), where,
                   size, limit);
      return NULL;
    }
  bytes = read_contents (file, g_file_info_get_size (info), cancellable, &local_error);
  if (bytes == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, local_error);
      else
        g_propagate_prefixed_error (error, local_error, _ ("Could not read “%s”: "), where);
      return NULL;
    }
  if (info_out != NULL)
    *info_out = g_steal_pointer (&info);
  return g_steal_pointer (&bytes);
}

/* Chooses the format by content and parses; errors name @display_name. */
static gpointer
parse_bytes (GBytes *bytes, const char *display_name, const TressFormat **format_out,
             GError **error)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  const TressFormat *format;
  GError *local_error = NULL;
  gpointer model;

  format = tress_format_detect (data, size, &local_error);
  if (format == NULL)
    {
      g_propagate_prefixed_error (error, local_error, "%s: ", display_name);
      return NULL;
    }
  if (format->parse == NULL || format->free == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                   _ ("%s: %s files cannot be opened by this version of Tress"), display_name,
                   format->display_name);
      return NULL;
    }
  model = format->parse (bytes, display_name, &local_error);
  if (model == NULL)
    {
      if (local_error == NULL)
        local_error = g_error_new (TRESS_ERROR, TRESS_ERROR_FAILED, _ ("the %s parser failed"),
                                   format->display_name);
      g_propagate_prefixed_error (error, local_error, "%s: ", display_name);
      return NULL;
    }
  *format_out = format;
  return model;
}

/* Signals from the history */

void
tress_document_invalidate_problems (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  g_clear_pointer (&priv->problems, g_ptr_array_unref);
}

/* Connected in init, so it runs before any view's handler of "applied": views
 * refreshing there (or on "changed", which comes later) see the new model's
 * problems. Subclasses whose model reports changes while a command is applied
 * call tress_document_invalidate_problems() before relaying them. */
static void
on_history_applied (TressHistory *history, TressCommand *cmd, gboolean undo, TressDocument *self)
{
  tress_document_invalidate_problems (self);
}

static void
on_history_changed (TressHistory *history, TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  priv->generation++;
  g_clear_pointer (&priv->problems, g_ptr_array_unref);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
on_history_notify_modified (TressHistory *history, GParamSpec *pspec, TressDocument *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
}

/* Setters */

static void
update_title (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);
  g_autofree char *title = NULL;

  if (priv->file != NULL)
    title = file_display_name (priv->file);
  else if (priv->display_name != NULL)
    title = g_strdup (priv->display_name);
  else
    title = g_strdup (_ ("Untitled"));

  if (g_strcmp0 (title, priv->title) != 0)
    {
      g_free (priv->title);
      priv->title = g_steal_pointer (&title);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }
}

static void
set_file (TressDocument *self, GFile *file)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  if (priv->file == file || (priv->file != NULL && file != NULL && g_file_equal (priv->file, file)))
    return;
  g_set_object (&priv->file, file);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  update_title (self);
}

static void
replace_model (TressDocument *self, gpointer model, GBytes *bytes)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);
  gpointer old = priv->model;

  priv->model = model;
  tress_history_set_target (priv->history, model);
  /* One "changed" for the whole replacement, emitted below. */
  g_signal_handlers_block_by_func (priv->history, on_history_changed, self);
  tress_history_clear (priv->history);
  g_signal_handlers_unblock_by_func (priv->history, on_history_changed, self);
  tress_history_set_saved (priv->history);
  priv->generation++;
  if (bytes != priv->original_bytes)
    {
      g_clear_pointer (&priv->original_bytes, g_bytes_unref);
      priv->original_bytes = bytes != NULL ? g_bytes_ref (bytes) : NULL;
    }
  g_clear_pointer (&priv->problems, g_ptr_array_unref);
  if (TRESS_DOCUMENT_GET_CLASS (self)->model_changed != NULL)
    TRESS_DOCUMENT_GET_CLASS (self)->model_changed (self);
  if (old != NULL && priv->format->free != NULL)
    priv->format->free (old);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* Construction */

TressDocument *
tress_document_new (const TressFormat *format, gpointer model, GFile *file, GBytes *original_bytes)
{
  g_return_val_if_fail (format != NULL, NULL);
  g_return_val_if_fail (model != NULL, NULL);

  return g_object_new (lookup_type (format), "format", format, "model", model, "file", file,
                       "original-bytes", original_bytes, NULL);
}

TressDocument *
tress_document_new_from_bytes (GBytes *bytes, const char *display_name, GError **error)
{
  const TressFormat *format = NULL;
  gpointer model;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (display_name == NULL)
    display_name = _ ("Untitled");
  model = parse_bytes (bytes, display_name, &format, error);
  if (model == NULL)
    return NULL;
  return g_object_new (lookup_type (format), "format", format, "model", model, "original-bytes",
                       bytes, "display-name", display_name, NULL);
}

/* Loading */

typedef struct
{
  GFile *file;
  TressProgress *progress; /* may be NULL */
  const TressFormat *format;
  gpointer model;
  GBytes *bytes;
  GFileInfo *info;
  GPtrArray *problems;
} LoadData;

static void
load_data_free (LoadData *data)
{
  if (data->model != NULL)
    data->format->free (data->model);
  g_clear_object (&data->file);
  g_clear_pointer (&data->progress, tress_progress_unref);
  g_clear_pointer (&data->bytes, g_bytes_unref);
  g_clear_object (&data->info);
  g_clear_pointer (&data->problems, g_ptr_array_unref);
  g_free (data);
}

static gboolean
load_steps (LoadData *data, GCancellable *cancellable, GError **error)
{
  g_autofree char *name = file_display_name (data->file);

  data->bytes = read_file (data->file, &data->info, cancellable, error);
  if (data->bytes == NULL)
    return FALSE;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  data->model = parse_bytes (data->bytes, name, &data->format, error);
  if (data->model == NULL)
    return FALSE;
  /* The problems too, here rather than when the first view asks for them
   * in the window's thread (a 100,000-ribbon creature: a tenth of a second). */
  if (data->format->validate != NULL)
    {
      /* TRANSLATORS: a phase of opening a file */
      tress_progress_phase (N_ ("Checking"), 0, TRESS_PROGRESS_ENTRIES);
      data->problems = data->format->validate (data->model);
    }
  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

/* Reads, parses and validates, reporting to the load's progress: its
 * cancellable (or @cancellable) stops the work at the next report. */
static gboolean
load_in_thread (LoadData *data, GCancellable *cancellable, GError **error)
{
  gboolean ok;

  if (data->progress == NULL)
    return load_steps (data, cancellable, error);
  tress_progress_run_begin (data->progress);
  ok = load_steps (data, cancellable, error);
  tress_progress_run_end ();
  return ok;
}

static TressDocument *
document_from_load_data (LoadData *data)
{
  TressDocument *self;
  TressDocumentPrivate *priv;

  self = g_object_new (lookup_type (data->format), "format", data->format, "model",
                       g_steal_pointer (&data->model), "file", data->file, "original-bytes",
                       data->bytes, NULL);
  priv = tress_document_get_instance_private (self);
  disk_state_set (&priv->disk, data->info);
  if (priv->problems == NULL)
    priv->problems = g_steal_pointer (&data->problems);
  return self;
}

static void
load_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  LoadData *data = task_data;
  GError *error = NULL;

  if (load_in_thread (data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
tress_document_load_async (GFile *file, GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data)
{
  tress_document_load_with_progress_async (file, NULL, cancellable, callback, user_data);
}

void
tress_document_load_with_progress_async (GFile *file, TressProgress *progress,
                                         GCancellable *cancellable, GAsyncReadyCallback callback,
                                         gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  LoadData *data;

  g_return_if_fail (G_IS_FILE (file));

  if (cancellable == NULL && progress != NULL)
    cancellable = tress_progress_get_cancellable (progress);
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tress_document_load_async);
  data = g_new0 (LoadData, 1);
  data->file = g_object_ref (file);
  data->progress = progress != NULL ? tress_progress_ref (progress) : NULL;
  g_task_set_task_data (task, data, (GDestroyNotify)load_data_free);
  g_task_run_in_thread (task, load_thread);
}

TressDocument *
tress_document_load_finish (GAsyncResult *result, GError **error)
{
  GTask *task = G_TASK (result);

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (task) == tress_document_load_async, NULL);

  if (!g_task_propagate_boolean (task, error))
    return NULL;
  return document_from_load_data (g_task_get_task_data (task));
}

TressDocument *
tress_document_load (GFile *file, GCancellable *cancellable, GError **error)
{
  LoadData *data;
  TressDocument *self = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  data = g_new0 (LoadData, 1);
  data->file = g_object_ref (file);
  if (load_in_thread (data, cancellable, error))
    self = document_from_load_data (data);
  load_data_free (data);
  return self;
}

/* Saving */

typedef struct
{
  const TressFormat *format;
  GFile *file;
  gboolean own_file; /* saving over the file the document was read from */
  gboolean overwrite_changed;
  GBytes *bytes;    /* to write */
  GBytes *expected; /* what the own file should still hold */
  DiskState disk;   /* in: as read; out: as written */
  guint64 generation;
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_clear_object (&data->file);
  g_clear_pointer (&data->bytes, g_bytes_unref);
  g_clear_pointer (&data->expected, g_bytes_unref);
  disk_state_clear (&data->disk);
  g_free (data);
}

/* The problems of @bytes (the file as read or last saved): an edit may keep
 * its errors, for the user to fix later, but may not add others. */
static GPtrArray *
problems_of (const TressFormat *format, GBytes *bytes, const char *name)
{
  GPtrArray *problems;
  gpointer model;

  if (bytes == NULL || format->validate == NULL
      || (model = format->parse (bytes, name, NULL)) == NULL)
    return tress_problem_list_new ();
  problems = format->validate (model);
  format->free (model);
  tress_problem_list_aggregate (problems);
  return problems;
}

/* The summary of @n new errors, the first of them @shown. */
static char *
describe_errors (GPtrArray *shown, guint n)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, ngettext ("%u error", "%u errors", n), n);
  for (guint i = 0; i < shown->len; i++)
    {
      g_autofree char *text = tress_problem_to_string (g_ptr_array_index (shown, i));

      g_string_append_printf (s, "%s %s", i == 0 ? ":" : ";", text);
    }
  if (shown->len < n)
    g_string_append (s, "; …");
  return g_string_free (s, FALSE);
}

/* Parses the new bytes again, validates them and checks that writing them again
 * gives the same bytes. Errors the file as read (@before) already had are
 * kept, not refused: a file broken in a part the user did not touch can still
 * take edits elsewhere; an error the edit adds is refused. */
static gboolean
check_new_bytes (const TressFormat *format, GBytes *bytes, GBytes *before, const char *name,
                 const char *where, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (GBytes) again = NULL;
  g_autoptr (GPtrArray) kept = NULL;
  g_autoptr (GPtrArray) shown = g_ptr_array_new ();
  guint n_new = 0;
  gpointer model;

  model = format->parse (bytes, name, &local_error);
  if (model == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_INVALID,
                   _ ("Nothing was written to “%s”: the new data does not read back (%s)"), where,
                   local_error != NULL ? local_error->message : _ ("the parser failed"));
      return FALSE;
    }

  problems = format->validate != NULL ? format->validate (model) : tress_problem_list_new ();
  if (tress_problem_list_count (problems, TRESS_SEVERITY_ERROR) > 0)
    {
      tress_problem_list_aggregate (problems);
      kept = problems_of (format, before, name);
      n_new = tress_problem_list_new_errors (kept, problems, shown, 3);
    }
  if (n_new > 0)
    {
      g_autofree char *summary = describe_errors (shown, n_new);

      format->free (model);
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_INVALID,
                   _ ("Nothing was written to “%s”: the new data has %s"), where, summary);
      return FALSE;
    }

  again = format->serialize (model, &local_error);
  format->free (model);
  if (again == NULL || !g_bytes_equal (again, bytes))
    {
      gsize a = 0, b = 0, i = 0;
      const guint8 *da = again != NULL ? g_bytes_get_data (again, &a) : NULL;
      const guint8 *db = g_bytes_get_data (bytes, &b);

      g_autofree char *at = NULL;

      while (da != NULL && i < a && i < b && da[i] == db[i])
        i++;
      at = g_strdup_printf ("0x%" G_GSIZE_MODIFIER "x", i);
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_INVALID,
                   _ ("Nothing was written to “%s”: the new data does not read back the same "
                      "(first difference at offset %s)"),
                   where, at);
      return FALSE;
    }
  return TRUE;
}

static gboolean
save_in_thread (SaveData *data, GCancellable *cancellable, GError **error)
{
  g_autofree char *name = file_display_name (data->file);
  g_autofree char *where = file_display_path (data->file);
  g_autofree char *new_etag = NULL;
  g_autoptr (GFileInfo) info = NULL;
  GError *local_error = NULL;
  gsize len = 0;
  const char *contents;
  const char *etag = NULL;

  if (!check_new_bytes (data->format, data->bytes, data->expected, name, where, error))
    return FALSE;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  if (data->own_file && !data->overwrite_changed)
    {
      if (file_changed_since (data->file, &data->disk, data->expected, cancellable, &info))
        {
          if (info == NULL)
            g_set_error (error, TRESS_ERROR, TRESS_ERROR_CHANGED_ON_DISK,
                         _ ("Nothing was written: “%s” was removed or cannot be read since it was "
                            "read"),
                         where);
          else if (!data->disk.known && data->expected == NULL)
            g_set_error (error, TRESS_ERROR, TRESS_ERROR_CHANGED_ON_DISK,
                         _ ("Nothing was written: “%s” already exists and was not read by this "
                            "document"),
                         where);
          else
            g_set_error (error, TRESS_ERROR, TRESS_ERROR_CHANGED_ON_DISK,
                         _ ("Nothing was written: “%s” was changed on disk since it was read"),
                         where);
          return FALSE;
        }
      /* A last check, atomic with the write: GIO refuses if the etag moved. */
      if (info != NULL)
        etag = g_file_info_get_etag (info);
    }

  contents = g_bytes_get_data (data->bytes, &len);
  /* Not g_file_replace_contents: see tress_file_replace. */
  if (!tress_file_replace (data->file, contents, len, etag, TRUE, &new_etag, cancellable,
                           &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG))
        {
          g_clear_error (&local_error);
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_CHANGED_ON_DISK,
                       _ ("Nothing was written: “%s” was changed on disk since it was read"),
                       where);
        }
      else
        g_propagate_prefixed_error (error, local_error, _ ("Could not save “%s”: "), where);
      return FALSE;
    }

  g_clear_object (&info);
  info = g_file_query_info (data->file, DISK_ATTRIBUTES, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  disk_state_set (&data->disk, info);
  return TRUE;
}

static gboolean
save_prepare (TressDocument *self, GFile *file, gboolean overwrite_changed, SaveData **out,
              GError **error)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);
  g_autoptr (GBytes) bytes = NULL;
  GError *local_error = NULL;
  SaveData *data;

  if (file == NULL)
    file = priv->file;
  if (file == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED,
                   _ ("“%s” has no file yet: save it under a name first"), priv->title);
      return FALSE;
    }
  if (priv->saving)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING, _ ("“%s” is already being saved"),
                   priv->title);
      return FALSE;
    }
  if (priv->format->serialize == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                   _ ("%s files cannot be saved by this version of Tress"),
                   priv->format->display_name);
      return FALSE;
    }

  bytes = priv->format->serialize (priv->model, &local_error);
  if (bytes == NULL)
    {
      g_autofree char *where = file_display_path (file);

      if (local_error == NULL)
        local_error = g_error_new (TRESS_ERROR, TRESS_ERROR_FAILED, _ ("the %s writer failed"),
                                   priv->format->display_name);
      g_propagate_prefixed_error (error, local_error, _ ("Nothing was written to “%s”: "), where);
      return FALSE;
    }

  data = g_new0 (SaveData, 1);
  data->format = priv->format;
  data->file = g_object_ref (file);
  data->own_file = priv->file != NULL && g_file_equal (file, priv->file);
  data->overwrite_changed = overwrite_changed;
  data->bytes = g_steal_pointer (&bytes);
  data->expected = priv->original_bytes != NULL ? g_bytes_ref (priv->original_bytes) : NULL;
  if (data->own_file)
    disk_state_copy (&data->disk, &priv->disk);
  data->generation = priv->generation;
  *out = data;
  return TRUE;
}

static void
save_complete (TressDocument *self, SaveData *data)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  set_file (self, data->file);
  disk_state_copy (&priv->disk, &data->disk);
  g_clear_pointer (&priv->original_bytes, g_bytes_unref);
  priv->original_bytes = g_bytes_ref (data->bytes);
  /* Edits made while saving are not on disk: then no position matches the file. */
  if (data->generation == priv->generation)
    tress_history_set_saved (priv->history);
  else
    tress_history_set_unsaved (priv->history);
}

static void
save_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;

  if (save_in_thread (task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* Back in the caller's context: the document is updated here, whether or not
 * the caller ever calls _finish(). */
static void
save_thread_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  TressDocument *self = TRESS_DOCUMENT (source);
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);
  g_autoptr (GTask) task = user_data;
  GTask *inner = G_TASK (result);
  GError *error = NULL;

  priv->saving = FALSE;
  if (!g_task_propagate_boolean (inner, &error))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAVING]);
      g_task_return_error (task, error);
      return;
    }
  save_complete (self, g_task_get_task_data (inner));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAVING]);
  g_task_return_boolean (task, TRUE);
}

void
tress_document_save_async (TressDocument *self, GFile *file, gboolean overwrite_changed,
                           GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);
  g_autoptr (GTask) task = NULL;
  g_autoptr (GTask) inner = NULL;
  GError *error = NULL;
  SaveData *data = NULL;

  g_return_if_fail (TRESS_IS_DOCUMENT (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tress_document_save_async);
  if (!save_prepare (self, file, overwrite_changed, &data, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  priv->saving = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAVING]);
  inner = g_task_new (self, cancellable, save_thread_done, g_steal_pointer (&task));
  g_task_set_task_data (inner, data, (GDestroyNotify)save_data_free);
  g_task_run_in_thread (inner, save_thread);
}

gboolean
tress_document_save_finish (TressDocument *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == tress_document_save_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
tress_document_save (TressDocument *self, GFile *file, gboolean overwrite_changed,
                     GCancellable *cancellable, GError **error)
{
  SaveData *data = NULL;
  gboolean ok;

  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (file == NULL || G_IS_FILE (file), FALSE);

  if (!save_prepare (self, file, overwrite_changed, &data, error))
    return FALSE;
  ok = save_in_thread (data, cancellable, error);
  if (ok)
    save_complete (self, data);
  save_data_free (data);
  return ok;
}

gboolean
tress_document_revert (TressDocument *self, GCancellable *cancellable, GError **error)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);
  g_autoptr (GFileInfo) info = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *name = NULL;
  const TressFormat *format = NULL;
  gpointer model;

  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), FALSE);

  if (priv->file == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, _ ("“%s” has no file to revert to"),
                   priv->title);
      return FALSE;
    }
  if (priv->saving)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _ ("“%s” is being saved; revert once that is done"), priv->title);
      return FALSE;
    }
  if (priv->model_holds > 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _ ("“%s” is being edited; revert once that is done"), priv->title);
      return FALSE;
    }
  bytes = read_file (priv->file, &info, cancellable, error);
  if (bytes == NULL)
    return FALSE;
  name = file_display_name (priv->file);
  model = parse_bytes (bytes, name, &format, error);
  if (model == NULL)
    return FALSE;
  if (format != priv->format)
    {
      format->free (model);
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED,
                   _ ("%s: the file now holds %s data, not %s; open it again instead"), name,
                   format->display_name, priv->format->display_name);
      return FALSE;
    }
  disk_state_set (&priv->disk, info);
  replace_model (self, model, bytes);
  return TRUE;
}

/* Getters */

const TressFormat *
tress_document_get_format (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), NULL);
  return priv->format;
}

gpointer
tress_document_get_model (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), NULL);
  return priv->model;
}

TressHistory *
tress_document_get_history (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), NULL);
  return priv->history;
}

GFile *
tress_document_get_file (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), NULL);
  return priv->file;
}

const char *
tress_document_get_title (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), NULL);
  return priv->title;
}

gboolean
tress_document_get_modified (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), FALSE);
  return tress_history_get_modified (priv->history);
}

gboolean
tress_document_get_saving (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), FALSE);
  return priv->saving;
}

void
tress_document_hold_model (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  g_return_if_fail (TRESS_IS_DOCUMENT (self));
  priv->model_holds++;
}

void
tress_document_release_model (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  g_return_if_fail (TRESS_IS_DOCUMENT (self));
  g_return_if_fail (priv->model_holds > 0);
  priv->model_holds--;
}

GPtrArray *
tress_document_get_problems (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), NULL);
  if (priv->problems == NULL)
    priv->problems = priv->format->validate != NULL ? priv->format->validate (priv->model)
                                                    : tress_problem_list_new ();
  return priv->problems;
}

GBytes *
tress_document_get_original_bytes (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), NULL);
  return priv->original_bytes;
}

gboolean
tress_document_changed_on_disk (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);
  g_autoptr (GFileInfo) info = NULL;
  gboolean changed;

  g_return_val_if_fail (TRESS_IS_DOCUMENT (self), FALSE);
  if (priv->file == NULL)
    return FALSE;
  changed = file_changed_since (priv->file, &priv->disk, priv->original_bytes, NULL, &info);
  /* Touched but identical: remember the new metadata so the next check is quick. */
  if (!changed && info != NULL && !disk_state_matches (&priv->disk, info))
    disk_state_set (&priv->disk, info);
  return changed;
}

/* GObject */

static void
tress_document_constructed (GObject *object)
{
  TressDocument *self = TRESS_DOCUMENT (object);
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  G_OBJECT_CLASS (tress_document_parent_class)->constructed (object);

  g_assert (priv->format != NULL);
  g_assert (priv->model != NULL);
  tress_history_set_target (priv->history, priv->model);
  update_title (self);
  if (TRESS_DOCUMENT_GET_CLASS (self)->model_changed != NULL)
    TRESS_DOCUMENT_GET_CLASS (self)->model_changed (self);
}

static void
tress_document_dispose (GObject *object)
{
  TressDocument *self = TRESS_DOCUMENT (object);
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  if (priv->history != NULL)
    g_signal_handlers_disconnect_by_data (priv->history, self);

  G_OBJECT_CLASS (tress_document_parent_class)->dispose (object);
}

static void
tress_document_finalize (GObject *object)
{
  TressDocument *self = TRESS_DOCUMENT (object);
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  /* The commands may refer to the model: drop them first. */
  g_clear_object (&priv->history);
  if (priv->model != NULL && priv->format != NULL && priv->format->free != NULL)
    priv->format->free (priv->model);
  g_clear_object (&priv->file);
  g_clear_pointer (&priv->original_bytes, g_bytes_unref);
  g_clear_pointer (&priv->display_name, g_free);
  g_clear_pointer (&priv->title, g_free);
  g_clear_pointer (&priv->problems, g_ptr_array_unref);
  disk_state_clear (&priv->disk);

  G_OBJECT_CLASS (tress_document_parent_class)->finalize (object);
}

static void
tress_document_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TressDocument *self = TRESS_DOCUMENT (object);
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_FORMAT:
      g_value_set_pointer (value, (gpointer)priv->format);
      break;
    case PROP_MODEL:
      g_value_set_pointer (value, priv->model);
      break;
    case PROP_FILE:
      g_value_set_object (value, priv->file);
      break;
    case PROP_ORIGINAL_BYTES:
      g_value_set_boxed (value, priv->original_bytes);
      break;
    case PROP_DISPLAY_NAME:
      g_value_set_string (value, priv->display_name);
      break;
    case PROP_TITLE:
      g_value_set_string (value, priv->title);
      break;
    case PROP_MODIFIED:
      g_value_set_boolean (value, tress_history_get_modified (priv->history));
      break;
    case PROP_HISTORY:
      g_value_set_object (value, priv->history);
      break;
    case PROP_SAVING:
      g_value_set_boolean (value, priv->saving);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_document_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  TressDocument *self = TRESS_DOCUMENT (object);
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_FORMAT:
      priv->format = g_value_get_pointer (value);
      break;
    case PROP_MODEL:
      priv->model = g_value_get_pointer (value);
      break;
    case PROP_FILE:
      g_set_object (&priv->file, g_value_get_object (value));
      break;
    case PROP_ORIGINAL_BYTES:
      g_clear_pointer (&priv->original_bytes, g_bytes_unref);
      priv->original_bytes = g_value_dup_boxed (value);
      break;
    case PROP_DISPLAY_NAME:
      g_free (priv->display_name);
      priv->display_name = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_document_class_init (TressDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;
  GParamFlags readable = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = tress_document_constructed;
  object_class->dispose = tress_document_dispose;
  object_class->finalize = tress_document_finalize;
  object_class->get_property = tress_document_get_property;
  object_class->set_property = tress_document_set_property;

  properties[PROP_FORMAT] = g_param_spec_pointer ("format", NULL, NULL, construct);
  /* The model, owned by the document from construction on. */
  properties[PROP_MODEL] = g_param_spec_pointer ("model", NULL, NULL, construct);
  properties[PROP_FILE]
      = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, construct | G_PARAM_EXPLICIT_NOTIFY);
  /* The bytes as read or last saved; NULL for a new document. */
  properties[PROP_ORIGINAL_BYTES]
      = g_param_spec_boxed ("original-bytes", NULL, NULL, G_TYPE_BYTES, construct);
  /* The title of a document without file. */
  properties[PROP_DISPLAY_NAME] = g_param_spec_string ("display-name", NULL, NULL, NULL, construct);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, readable);
  properties[PROP_MODIFIED] = g_param_spec_boolean ("modified", NULL, NULL, FALSE, readable);
  properties[PROP_HISTORY]
      = g_param_spec_object ("history", NULL, NULL, TRESS_TYPE_HISTORY, readable);
  /* TRUE while an asynchronous save runs (another save or a revert is refused). */
  properties[PROP_SAVING] = g_param_spec_boolean ("saving", NULL, NULL, FALSE, readable);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tress_document_init (TressDocument *self)
{
  TressDocumentPrivate *priv = tress_document_get_instance_private (self);

  priv->history = tress_history_new (NULL);
  tress_history_set_limits (priv->history, 1000, 256 * 1024 * 1024);
  g_signal_connect (priv->history, "applied", G_CALLBACK (on_history_applied), self);
  g_signal_connect (priv->history, "changed", G_CALLBACK (on_history_changed), self);
  g_signal_connect (priv->history, "notify::modified", G_CALLBACK (on_history_notify_modified),
                    self);
}
