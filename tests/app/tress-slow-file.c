/* tress-slow-file.c: a local file read slowly, as over a slow network share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-slow-file.h"

static guint reads_after_cancel;
static gint64 last_read_time;
static GMutex time_lock;

guint
tress_slow_file_reads_after_cancel (void)
{
  return g_atomic_int_get (&reads_after_cancel);
}

gint64
tress_slow_file_last_read_time (void)
{
  gint64 t;

  g_mutex_lock (&time_lock);
  t = last_read_time;
  g_mutex_unlock (&time_lock);
  return t;
}

/* ---- the stream ------------------------------------------------------------ */

#define SLOW_TYPE_STREAM (slow_stream_get_type ())
G_DECLARE_FINAL_TYPE (SlowStream, slow_stream, SLOW, STREAM, GFileInputStream)

struct _SlowStream
{
  GFileInputStream parent_instance;
  GInputStream *inner;
  gsize chunk;
  guint delay_ms;
};

G_DEFINE_FINAL_TYPE (SlowStream, slow_stream, G_TYPE_FILE_INPUT_STREAM)

static gssize
slow_stream_read (GInputStream *stream, void *buffer, gsize count, GCancellable *cancellable,
                  GError **error)
{
  SlowStream *self = SLOW_STREAM (stream);
  gint64 until = g_get_monotonic_time () + (gint64)self->delay_ms * 1000;
  gssize n;

  /* Asked for more after the cancel: the reader did not stop. */
  if (g_cancellable_is_cancelled (cancellable))
    g_atomic_int_inc (&reads_after_cancel);
  while (g_get_monotonic_time () < until)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return -1;
      g_usleep (2000);
    }
  n = g_input_stream_read (self->inner, buffer, MIN (count, self->chunk), cancellable, error);
  if (n > 0)
    {
      g_mutex_lock (&time_lock);
      last_read_time = g_get_monotonic_time ();
      g_mutex_unlock (&time_lock);
    }
  return n;
}

static gboolean
slow_stream_close (GInputStream *stream, GCancellable *cancellable, GError **error)
{
  return g_input_stream_close (SLOW_STREAM (stream)->inner, cancellable, error);
}

static void
slow_stream_finalize (GObject *object)
{
  g_clear_object (&SLOW_STREAM (object)->inner);
  G_OBJECT_CLASS (slow_stream_parent_class)->finalize (object);
}

static void
slow_stream_class_init (SlowStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = slow_stream_finalize;
  G_INPUT_STREAM_CLASS (klass)->read_fn = slow_stream_read;
  G_INPUT_STREAM_CLASS (klass)->close_fn = slow_stream_close;
}

static void
slow_stream_init (SlowStream *self)
{
}

/* ---- the file ---------------------------------------------------------------- */

#define SLOW_TYPE_FILE (slow_file_get_type ())
G_DECLARE_FINAL_TYPE (SlowFile, slow_file, SLOW, FILE, GObject)

struct _SlowFile
{
  GObject parent_instance;
  GFile *inner;
  gsize chunk;
  guint delay_ms;
};

static void slow_file_iface_init (GFileIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SlowFile, slow_file, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_FILE, slow_file_iface_init))

static GFile *
wrap (GFile *inner, gsize chunk, guint delay_ms)
{
  SlowFile *self = g_object_new (SLOW_TYPE_FILE, NULL);

  self->inner = inner;
  self->chunk = chunk;
  self->delay_ms = delay_ms;
  return G_FILE (self);
}

static GFile *
slow_dup (GFile *file)
{
  SlowFile *self = SLOW_FILE (file);

  return wrap (g_file_dup (self->inner), self->chunk, self->delay_ms);
}

static guint
slow_hash (GFile *file)
{
  return g_file_hash (SLOW_FILE (file)->inner);
}

static gboolean
slow_equal (GFile *a, GFile *b)
{
  return SLOW_IS_FILE (b) && g_file_equal (SLOW_FILE (a)->inner, SLOW_FILE (b)->inner);
}

static gboolean
slow_is_native (GFile *file)
{
  return FALSE;
}

static gboolean
slow_has_uri_scheme (GFile *file, const char *scheme)
{
  return g_file_has_uri_scheme (SLOW_FILE (file)->inner, scheme);
}

static char *
slow_get_uri_scheme (GFile *file)
{
  return g_file_get_uri_scheme (SLOW_FILE (file)->inner);
}

static char *
slow_get_basename (GFile *file)
{
  return g_file_get_basename (SLOW_FILE (file)->inner);
}

static char *
slow_get_path (GFile *file)
{
  return g_file_get_path (SLOW_FILE (file)->inner);
}

static char *
slow_get_uri (GFile *file)
{
  return g_file_get_uri (SLOW_FILE (file)->inner);
}

static char *
slow_get_parse_name (GFile *file)
{
  return g_file_get_parse_name (SLOW_FILE (file)->inner);
}

static GFile *
slow_get_parent (GFile *file)
{
  return g_file_get_parent (SLOW_FILE (file)->inner);
}

static gboolean
slow_prefix_matches (GFile *prefix, GFile *file)
{
  return SLOW_IS_FILE (file)
         && g_file_has_prefix (SLOW_FILE (file)->inner, SLOW_FILE (prefix)->inner);
}

static char *
slow_get_relative_path (GFile *parent, GFile *descendant)
{
  return SLOW_IS_FILE (descendant)
             ? g_file_get_relative_path (SLOW_FILE (parent)->inner, SLOW_FILE (descendant)->inner)
             : NULL;
}

static GFile *
slow_resolve_relative_path (GFile *file, const char *relative_path)
{
  return g_file_resolve_relative_path (SLOW_FILE (file)->inner, relative_path);
}

static GFile *
slow_get_child_for_display_name (GFile *file, const char *display_name, GError **error)
{
  return g_file_get_child_for_display_name (SLOW_FILE (file)->inner, display_name, error);
}

static GFileInfo *
slow_query_info (GFile *file, const char *attributes, GFileQueryInfoFlags flags,
                 GCancellable *cancellable, GError **error)
{
  return g_file_query_info (SLOW_FILE (file)->inner, attributes, flags, cancellable, error);
}

static GFileInputStream *
slow_read (GFile *file, GCancellable *cancellable, GError **error)
{
  SlowFile *self = SLOW_FILE (file);
  GFileInputStream *inner = g_file_read (self->inner, cancellable, error);
  SlowStream *stream;

  if (inner == NULL)
    return NULL;
  stream = g_object_new (SLOW_TYPE_STREAM, NULL);
  stream->inner = G_INPUT_STREAM (inner);
  stream->chunk = self->chunk;
  stream->delay_ms = self->delay_ms;
  return G_FILE_INPUT_STREAM (stream);
}

static GFileMonitor *
slow_monitor_file (GFile *file, GFileMonitorFlags flags, GCancellable *cancellable, GError **error)
{
  return g_file_monitor_file (SLOW_FILE (file)->inner, flags, cancellable, error);
}

static void
slow_file_iface_init (GFileIface *iface)
{
  iface->dup = slow_dup;
  iface->hash = slow_hash;
  iface->equal = slow_equal;
  iface->is_native = slow_is_native;
  iface->has_uri_scheme = slow_has_uri_scheme;
  iface->get_uri_scheme = slow_get_uri_scheme;
  iface->get_basename = slow_get_basename;
  iface->get_path = slow_get_path;
  iface->get_uri = slow_get_uri;
  iface->get_parse_name = slow_get_parse_name;
  iface->get_parent = slow_get_parent;
  iface->prefix_matches = slow_prefix_matches;
  iface->get_relative_path = slow_get_relative_path;
  iface->resolve_relative_path = slow_resolve_relative_path;
  iface->get_child_for_display_name = slow_get_child_for_display_name;
  iface->query_info = slow_query_info;
  iface->read_fn = slow_read;
  iface->monitor_file = slow_monitor_file;
}

static void
slow_file_finalize (GObject *object)
{
  g_clear_object (&SLOW_FILE (object)->inner);
  G_OBJECT_CLASS (slow_file_parent_class)->finalize (object);
}

static void
slow_file_class_init (SlowFileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = slow_file_finalize;
}

static void
slow_file_init (SlowFile *self)
{
}

GFile *
tress_slow_file_new (const char *path, gsize chunk, guint delay_ms)
{
  return wrap (g_file_new_for_path (path), chunk, delay_ms);
}
