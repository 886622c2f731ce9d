/* tress-race-file.c: a local file another program writes at the worst moment
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-race-file.h"

#include <string.h>

#include <glib/gstdio.h>
#include <utime.h>

#define RACE_TYPE_FILE (race_file_get_type ())
G_DECLARE_FINAL_TYPE (RaceFile, race_file, RACE, FILE, GObject)

/* Shared by a file and its duplicates (the document may keep either). */
typedef struct
{
  gatomicrefcount ref_count;
  GMutex lock;
  GBytes *theirs; /* armed: what the other program writes */
  gboolean fired;
} RaceState;

struct _RaceFile
{
  GObject parent_instance;
  GFile *inner;
  RaceState *state;
};

static void race_file_iface_init (GFileIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (RaceFile, race_file, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_FILE, race_file_iface_init))

static RaceState *
race_state_ref (RaceState *state)
{
  g_atomic_ref_count_inc (&state->ref_count);
  return state;
}

static void
race_state_unref (RaceState *state)
{
  if (!g_atomic_ref_count_dec (&state->ref_count))
    return;
  g_clear_pointer (&state->theirs, g_bytes_unref);
  g_mutex_clear (&state->lock);
  g_free (state);
}

static GFile *
wrap (GFile *inner, RaceState *state)
{
  RaceFile *self = g_object_new (RACE_TYPE_FILE, NULL);

  self->inner = inner;
  self->state = race_state_ref (state);
  return G_FILE (self);
}

static GFile *
race_dup (GFile *file)
{
  RaceFile *self = RACE_FILE (file);

  return wrap (g_file_dup (self->inner), self->state);
}

static guint
race_hash (GFile *file)
{
  return g_file_hash (RACE_FILE (file)->inner);
}

static gboolean
race_equal (GFile *a, GFile *b)
{
  return RACE_IS_FILE (b) && g_file_equal (RACE_FILE (a)->inner, RACE_FILE (b)->inner);
}

static gboolean
race_is_native (GFile *file)
{
  return g_file_is_native (RACE_FILE (file)->inner);
}

static gboolean
race_has_uri_scheme (GFile *file, const char *scheme)
{
  return g_file_has_uri_scheme (RACE_FILE (file)->inner, scheme);
}

static char *
race_get_uri_scheme (GFile *file)
{
  return g_file_get_uri_scheme (RACE_FILE (file)->inner);
}

static char *
race_get_basename (GFile *file)
{
  return g_file_get_basename (RACE_FILE (file)->inner);
}

static char *
race_get_path (GFile *file)
{
  return g_file_get_path (RACE_FILE (file)->inner);
}

static char *
race_get_uri (GFile *file)
{
  return g_file_get_uri (RACE_FILE (file)->inner);
}

static char *
race_get_parse_name (GFile *file)
{
  return g_file_get_parse_name (RACE_FILE (file)->inner);
}

static GFile *
race_get_parent (GFile *file)
{
  return g_file_get_parent (RACE_FILE (file)->inner);
}

static gboolean
race_prefix_matches (GFile *prefix, GFile *file)
{
  return RACE_IS_FILE (file)
         && g_file_has_prefix (RACE_FILE (file)->inner, RACE_FILE (prefix)->inner);
}

static char *
race_get_relative_path (GFile *parent, GFile *descendant)
{
  return RACE_IS_FILE (descendant)
             ? g_file_get_relative_path (RACE_FILE (parent)->inner, RACE_FILE (descendant)->inner)
             : NULL;
}

static GFile *
race_resolve_relative_path (GFile *file, const char *relative_path)
{
  return g_file_resolve_relative_path (RACE_FILE (file)->inner, relative_path);
}

static GFile *
race_get_child_for_display_name (GFile *file, const char *display_name, GError **error)
{
  return g_file_get_child_for_display_name (RACE_FILE (file)->inner, display_name, error);
}

/* The other program: a new file renamed over the old one (g_file_set_contents),
 * dated later than anything a test writes, so no clock tick hides it. */
static void
other_program_writes (GFile *inner, GBytes *theirs)
{
  g_autofree char *path = g_file_get_path (inner);
  g_autoptr (GError) error = NULL;
  struct utimbuf later = { .actime = 2000000000, .modtime = 2000000000 };

  g_file_set_contents (path, g_bytes_get_data (theirs, NULL), (gssize)g_bytes_get_size (theirs),
                       &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_utime (path, &later), ==, 0);
}

static GFileInfo *
race_query_info (GFile *file, const char *attributes, GFileQueryInfoFlags flags,
                 GCancellable *cancellable, GError **error)
{
  RaceFile *self = RACE_FILE (file);
  GFileInfo *info = g_file_query_info (self->inner, attributes, flags, cancellable, error);
  g_autoptr (GBytes) theirs = NULL;

  /* A document's look at the times, before it writes: the file as it was is
   * the answer, and then the other program writes. */
  if (info != NULL && strstr (attributes, G_FILE_ATTRIBUTE_TIME_CHANGED) != NULL)
    {
      g_mutex_lock (&self->state->lock);
      theirs = g_steal_pointer (&self->state->theirs);
      if (theirs != NULL)
        self->state->fired = TRUE;
      g_mutex_unlock (&self->state->lock);
      if (theirs != NULL)
        other_program_writes (self->inner, theirs);
    }
  return info;
}

static GFileInputStream *
race_read (GFile *file, GCancellable *cancellable, GError **error)
{
  return g_file_read (RACE_FILE (file)->inner, cancellable, error);
}

static GFileMonitor *
race_monitor_file (GFile *file, GFileMonitorFlags flags, GCancellable *cancellable, GError **error)
{
  return g_file_monitor_file (RACE_FILE (file)->inner, flags, cancellable, error);
}

static void
race_file_iface_init (GFileIface *iface)
{
  iface->dup = race_dup;
  iface->hash = race_hash;
  iface->equal = race_equal;
  iface->is_native = race_is_native;
  iface->has_uri_scheme = race_has_uri_scheme;
  iface->get_uri_scheme = race_get_uri_scheme;
  iface->get_basename = race_get_basename;
  iface->get_path = race_get_path;
  iface->get_uri = race_get_uri;
  iface->get_parse_name = race_get_parse_name;
  iface->get_parent = race_get_parent;
  iface->prefix_matches = race_prefix_matches;
  iface->get_relative_path = race_get_relative_path;
  iface->resolve_relative_path = race_resolve_relative_path;
  iface->get_child_for_display_name = race_get_child_for_display_name;
  iface->query_info = race_query_info;
  iface->read_fn = race_read;
  iface->monitor_file = race_monitor_file;
}

static void
race_file_finalize (GObject *object)
{
  RaceFile *self = RACE_FILE (object);

  g_clear_object (&self->inner);
  g_clear_pointer (&self->state, race_state_unref);
  G_OBJECT_CLASS (race_file_parent_class)->finalize (object);
}

static void
race_file_class_init (RaceFileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = race_file_finalize;
}

static void
race_file_init (RaceFile *self)
{
}

GFile *
tress_race_file_new (const char *path)
{
  RaceState *state = g_new0 (RaceState, 1);
  GFile *file;

  g_atomic_ref_count_init (&state->ref_count);
  g_mutex_init (&state->lock);
  file = wrap (g_file_new_for_path (path), state);
  race_state_unref (state);
  return file;
}

void
tress_race_file_arm (GFile *file, GBytes *theirs)
{
  RaceState *state;

  g_return_if_fail (RACE_IS_FILE (file));
  state = RACE_FILE (file)->state;
  g_mutex_lock (&state->lock);
  g_clear_pointer (&state->theirs, g_bytes_unref);
  state->theirs = g_bytes_ref (theirs);
  state->fired = FALSE;
  g_mutex_unlock (&state->lock);
}

gboolean
tress_race_file_fired (GFile *file)
{
  RaceState *state;
  gboolean fired;

  g_return_val_if_fail (RACE_IS_FILE (file), FALSE);
  state = RACE_FILE (file)->state;
  g_mutex_lock (&state->lock);
  fired = state->fired;
  g_mutex_unlock (&state->lock);
  return fired;
}
