/* tress-file.c: replacing a file's contents so that a failure or a kill leaves
 * it as it was
 *
 * A local file is written as a new file in its folder: an unnamed O_TMPFILE
 * where the filesystem has them (nothing to leave behind), else a named
 * ".NAME.tress-XXXXXX", flushed to disk, then put in place by one rename (a new
 * file: by one link of the unnamed file to its name, so it never exists half
 * written). The named temporary file, and the name an unnamed one is given for
 * the moment before its rename over an existing file, are locked (flock) while
 * the save runs: the next save of the same file removes those no process holds,
 * what a save killed at the wrong moment left. Files GIO cannot reach by a path
 * (other GVfs backends) go through g_file_replace() with the same promises
 * except the one about kills.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "tress-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dirent.h>

/* Written in pieces this size, the cancellable checked between them. */
#define WRITE_CHUNK (1024 * 1024)
#define TEMP_TAG ".tress-"
#define TEMP_RANDOM 6
#define MAX_LINK_DEPTH 40

/* ---- through GIO (files without a local path) ----------------------------- */

/* Drops what a replace stream wrote without putting it in place: closed with a
 * cancelled cancellable it removes its temporary file and leaves the original
 * (a plain close, or the unref, would rename the partial file over it and make
 * the backup). */
static void
abandon_stream (GOutputStream *out)
{
  g_autoptr (GCancellable) abort = g_cancellable_new ();

  g_cancellable_cancel (abort);
  g_output_stream_close (out, abort, NULL);
}

static gboolean
replace_with_gio (GFile *target, const char *contents, gsize len, const char *etag, gboolean backup,
                  char **new_etag, GCancellable *cancellable, GError **error)
{
  g_autoptr (GFileOutputStream) out = NULL;

  out = g_file_replace (target, etag, backup, G_FILE_CREATE_NONE, cancellable, error);
  if (out == NULL)
    return FALSE;
  if (!g_output_stream_write_all (G_OUTPUT_STREAM (out), contents, len, NULL, cancellable, error)
      || g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      abandon_stream (G_OUTPUT_STREAM (out));
      return FALSE;
    }
  /* The new file goes in place now: no cancellation past this point. */
  if (!g_output_stream_close (G_OUTPUT_STREAM (out), NULL, error))
    return FALSE;
  if (new_etag != NULL)
    *new_etag = g_file_output_stream_get_etag (out);
  return TRUE;
}

/* ---- local files ------------------------------------------------------------ */

/* @file, or the file its chain of symbolic links ends at. */
static GFile *
resolve_link (GFile *file, GCancellable *cancellable)
{
  g_autoptr (GFile) cur = g_object_ref (file);

  for (guint depth = 0; depth < MAX_LINK_DEPTH; depth++)
    {
      g_autoptr (GFileInfo) info = g_file_query_info (
          cur, G_FILE_ATTRIBUTE_STANDARD_IS_SYMLINK "," G_FILE_ATTRIBUTE_STANDARD_SYMLINK_TARGET,
          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, NULL);
      g_autoptr (GFile) parent = NULL;
      GFile *next;

      if (info == NULL || !g_file_info_get_is_symlink (info)
          || g_file_info_get_symlink_target (info) == NULL)
        break;
      parent = g_file_get_parent (cur);
      if (parent == NULL)
        break;
      next = g_file_resolve_relative_path (parent, g_file_info_get_symlink_target (info));
      g_object_unref (cur);
      cur = next;
    }
  return g_steal_pointer (&cur);
}

static void G_GNUC_PRINTF (3, 4) set_errno_error (GError **error, int err, const char *format, ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (err), "%s: %s", what, g_strerror (err));
}

/* Where the save of @base puts its named temporary files: ".BASE.tress-"
 * followed by TEMP_RANDOM letters, BASE cut so that the name fits NAME_MAX. */
static char *
temp_prefix (const char *base)
{
  gsize room = 255 - 1 - strlen (TEMP_TAG) - TEMP_RANDOM;
  gsize n = MIN (strlen (base), room);

  return g_strdup_printf (".%.*s%s", (int)n, base, TEMP_TAG);
}

static gboolean
is_temp_name (const char *name, const char *prefix)
{
  gsize p = strlen (prefix);

  if (strncmp (name, prefix, p) != 0 || strlen (name) != p + TEMP_RANDOM)
    return FALSE;
  for (gsize i = p; name[i] != '\0'; i++)
    if (!g_ascii_isalnum (name[i]))
      return FALSE;
  return TRUE;
}

/* Removes the temporary files earlier saves of the file left: those no running
 * save holds locked. */
static void
remove_stale_temps (int dirfd, const char *prefix)
{
  int fd = dup (dirfd);
  DIR *dir;
  struct dirent *entry;
  GPtrArray *stale;

  if (fd < 0)
    return;
  dir = fdopendir (fd);
  if (dir == NULL)
    {
      close (fd);
      return;
    }
  stale = g_ptr_array_new_with_free_func (g_free);
  while ((entry = readdir (dir)) != NULL)
    if (is_temp_name (entry->d_name, prefix))
      g_ptr_array_add (stale, g_strdup (entry->d_name));
  closedir (dir);

  for (guint i = 0; i < stale->len; i++)
    {
      const char *name = g_ptr_array_index (stale, i);
      int tfd = openat (dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
      struct stat st;

      if (tfd < 0)
        continue;
      /* The lock is taken before the name is removed and released after:
       * a save that locks the name afterwards sees it gone. */
      if (fstat (tfd, &st) == 0 && S_ISREG (st.st_mode) && flock (tfd, LOCK_EX | LOCK_NB) == 0)
        unlinkat (dirfd, name, 0);
      close (tfd);
    }
  g_ptr_array_unref (stale);
}

static void
random_name (const char *prefix, char *out, gsize size)
{
  static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  gsize p = g_strlcpy (out, prefix, size);

  for (guint i = 0; i < TEMP_RANDOM && p + 1 < size; i++)
    out[p++] = letters[g_random_int_range (0, sizeof letters - 1)];
  out[p] = '\0';
}

/* A named temporary file, created and locked; the name it got in @name. */
static int
open_named_temp (int dirfd, const char *prefix, mode_t mode, char *name, gsize size, int *err)
{
  for (guint tries = 0; tries < 100; tries++)
    {
      struct stat a, b;
      int fd;

      random_name (prefix, name, size);
      fd = openat (dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
      if (fd < 0)
        {
          if (errno == EEXIST)
            continue;
          *err = errno;
          return -1;
        }
      /* A stale-file sweep of another save may have taken it between the
       * create and the lock: then the name is gone, try another. */
      if (flock (fd, LOCK_EX | LOCK_NB) == 0
          && (fstatat (dirfd, name, &b, AT_SYMLINK_NOFOLLOW) != 0 || fstat (fd, &a) != 0
              || a.st_ino != b.st_ino || a.st_dev != b.st_dev))
        {
          close (fd);
          continue;
        }
      return fd;
    }
  *err = EEXIST;
  return -1;
}

/* Writes everything; FALSE with errno set. */
static gboolean
write_all (int fd, const char *data, gsize len, GCancellable *cancellable, gsize *written)
{
  gsize done = 0;

  while (done < len)
    {
      gsize n = MIN (len - done, (gsize)WRITE_CHUNK);
      gssize w;

      if (g_cancellable_is_cancelled (cancellable))
        {
          errno = ECANCELED;
          *written = done;
          return FALSE;
        }
      w = write (fd, data + done, n);
      if (w < 0)
        {
          if (errno == EINTR)
            continue;
          *written = done;
          return FALSE;
        }
      done += (gsize)w;
    }
  *written = done;
  return TRUE;
}

static void
set_write_error (GError **error, int err, const char *name, gsize written)
{
  struct rlimit limit;

  if (err == EFBIG && getrlimit (RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                 _ ("Could not write “%s”: the new file reached the file size limit of this "
                    "process (ulimit -f: %" G_GUINT64_FORMAT " bytes) after %" G_GSIZE_FORMAT
                    " bytes"),
                 name, (guint64)limit.rlim_cur, written);
  else if (err == ECANCELED)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _ ("Writing “%s” was cancelled"), name);
  else
    set_errno_error (error, err, _ ("Could not write “%s”"), name);
}

/* The temporary file a save is writing: unnamed (O_TMPFILE) or named. */
typedef struct
{
  int dirfd;
  int fd;
  char *prefix;
  char name[256]; /* "" while the file has no name */
  char proc_path[64];
} Temp;

static void
temp_clear (Temp *t)
{
  if (t->fd >= 0)
    {
      if (t->name[0] != '\0')
        unlinkat (t->dirfd, t->name, 0);
      close (t->fd);
      t->fd = -1;
    }
  g_clear_pointer (&t->prefix, g_free);
}

static gboolean
temp_open (Temp *t, mode_t mode, gboolean unnamed, const char *display, GError **error)
{
  int err = 0;

  t->name[0] = '\0';
#ifdef O_TMPFILE
  if (unnamed)
    {
      t->fd = openat (t->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
      if (t->fd >= 0)
        {
          flock (t->fd, LOCK_EX | LOCK_NB);
          g_snprintf (t->proc_path, sizeof t->proc_path, "/proc/self/fd/%d", t->fd);
          return TRUE;
        }
      /* The filesystem has no unnamed files (or the kernel predates them):
       * a named one instead. Errors it shares with that (EACCES, ENOSPC…) are
       * reported by the named attempt. */
    }
#endif
  t->fd = open_named_temp (t->dirfd, t->prefix, mode, t->name, sizeof t->name, &err);
  if (t->fd < 0)
    {
      set_errno_error (error, err, _ ("Could not create a temporary file beside “%s”"), display);
      return FALSE;
    }
  return TRUE;
}

/* Gives the unnamed file @name; FALSE with errno. */
static gboolean
temp_link (Temp *t, const char *name)
{
  if (linkat (AT_FDCWD, t->proc_path, t->dirfd, name, AT_SYMLINK_FOLLOW) == 0)
    return TRUE;
  if (errno == ENOENT || errno == ENOTDIR)
    /* No /proc: this needs CAP_DAC_READ_SEARCH. */
    return linkat (t->fd, "", t->dirfd, name, AT_EMPTY_PATH) == 0;
  return FALSE;
}

/* Copies @base to @backup (via a temporary file, renamed): for filesystems
 * without hard links. */
static gboolean
copy_backup (Temp *t, const char *base, const char *backup, const char *display, GError **error)
{
  int in = openat (t->dirfd, base, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  Temp copy = { t->dirfd, -1, g_strdup (t->prefix), "", "" };
  struct stat st;
  char buf[65536];
  gboolean ok = FALSE;

  if (in < 0 || fstat (in, &st) != 0)
    goto out;
  if (!temp_open (&copy, st.st_mode & 0777, FALSE, display, NULL))
    goto out;
  for (;;)
    {
      gssize n = read (in, buf, sizeof buf);
      gsize w;

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 || (n > 0 && !write_all (copy.fd, buf, (gsize)n, NULL, &w)))
        goto out;
      if (n == 0)
        break;
    }
  if (fsync (copy.fd) != 0 || renameat (t->dirfd, copy.name, t->dirfd, backup) != 0)
    goto out;
  copy.name[0] = '\0';
  ok = TRUE;
out:
  if (!ok)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANT_CREATE_BACKUP,
                 _ ("Could not make the backup “%s~”: %s"), display, g_strerror (errno));
  if (in >= 0)
    close (in);
  temp_clear (&copy);
  return ok;
}

/* "NAME~" holds what NAME holds now: a second link to the same file (it stays
 * when NAME is replaced), or a copy where links cannot be made. */
static gboolean
make_backup (Temp *t, const char *base, const char *display, GError **error)
{
  g_autofree char *backup = g_strconcat (base, "~", NULL);

  if (unlinkat (t->dirfd, backup, 0) != 0 && errno != ENOENT)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANT_CREATE_BACKUP,
                   _ ("Could not make the backup “%s~”: %s"), display, g_strerror (errno));
      return FALSE;
    }
  if (linkat (t->dirfd, base, t->dirfd, backup, 0) == 0)
    return TRUE;
  return copy_backup (t, base, backup, display, error);
}

static gboolean
replace_local (GFile *target, const char *path, const char *contents, gsize len, const char *etag,
               gboolean backup, char **new_etag, GCancellable *cancellable, GError **error)
{
  g_autofree char *display = g_file_get_parse_name (target);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  Temp t = { -1, -1, NULL, "", "" };
  struct stat st;
  gboolean exists, ok = FALSE;
  mode_t mode = 0666;
  gsize written = 0;

  t.dirfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (t.dirfd < 0)
    {
      set_errno_error (error, errno, _ ("Could not write “%s”: its folder cannot be opened"),
                       display);
      return FALSE;
    }
  t.prefix = temp_prefix (base);

  exists = fstatat (t.dirfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (!exists && errno != ENOENT)
    {
      set_errno_error (error, errno, _ ("Could not write “%s”"), display);
      goto out;
    }
  if (exists && !S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _ ("“%s” is not a regular file: nothing was written"), display);
      goto out;
    }
  if (exists && etag != NULL)
    {
      g_autoptr (GFileInfo) info = g_file_query_info (target, G_FILE_ATTRIBUTE_ETAG_VALUE,
                                                      G_FILE_QUERY_INFO_NONE, cancellable, NULL);

      if (info == NULL || g_strcmp0 (g_file_info_get_etag (info), etag) != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG,
                       _ ("“%s” was changed on disk: nothing was written"), display);
          goto out;
        }
    }
  if (exists)
    mode = st.st_mode & 0777;

  remove_stale_temps (t.dirfd, t.prefix);
  for (gboolean unnamed = TRUE;; unnamed = FALSE)
    {
      if (!temp_open (&t, mode, unnamed, display, error))
        goto out;
      if (exists)
        {
          /* The old file's permissions (the umask shaped the new one's) and,
           * where this process may, its owner. */
          if (fchmod (t.fd, mode) != 0)
            {
              set_errno_error (error, errno, _ ("Could not write “%s”"), display);
              goto out;
            }
          if ((st.st_uid != geteuid () || st.st_gid != getegid ())
              && fchown (t.fd, st.st_uid, st.st_gid) != 0)
            (void)fchown (t.fd, (uid_t)-1, st.st_gid);
        }
      if (!write_all (t.fd, contents, len, cancellable, &written) || fsync (t.fd) != 0)
        {
          set_write_error (error, errno, display, written);
          goto out;
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      if (t.name[0] != '\0' || exists)
        break;
      /* A new file: it gets its name whole, in one step. */
      if (temp_link (&t, base))
        {
          ok = TRUE;
          break;
        }
      if (errno == EEXIST)
        {
          /* Made by someone else meanwhile: replaced as any file. */
          exists = fstatat (t.dirfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0;
          break;
        }
      if (errno != EPERM && errno != EACCES && errno != EOPNOTSUPP)
        {
          set_errno_error (error, errno, _ ("Could not write “%s”"), display);
          goto out;
        }
      /* The unnamed file cannot be given a name here: again, named. */
      temp_clear (&t);
      t.prefix = temp_prefix (base);
    }

  if (!ok)
    {
      /* The new file gets a name beside the old one (if it has none yet), the
       * backup is made, and one rename puts it in place. */
      if (t.name[0] == '\0')
        {
          char name[256];
          gboolean linked = FALSE;

          for (guint tries = 0; tries < 100 && !linked; tries++)
            {
              random_name (t.prefix, name, sizeof name);
              linked = temp_link (&t, name);
              if (!linked && errno != EEXIST)
                break;
            }
          if (!linked)
            {
              set_errno_error (error, errno, _ ("Could not write “%s”"), display);
              goto out;
            }
          memcpy (t.name, name, sizeof name);
        }
      if (backup && exists && !make_backup (&t, base, display, error))
        goto out;
      if (renameat (t.dirfd, t.name, t.dirfd, base) != 0)
        {
          set_errno_error (error, errno, _ ("Could not write “%s”"), display);
          goto out;
        }
      t.name[0] = '\0';
      ok = TRUE;
    }
  /* The rename itself on disk too. */
  fsync (t.dirfd);

  if (new_etag != NULL)
    {
      g_autoptr (GFileInfo) info = g_file_query_info (target, G_FILE_ATTRIBUTE_ETAG_VALUE,
                                                      G_FILE_QUERY_INFO_NONE, NULL, NULL);

      *new_etag = info != NULL ? g_strdup (g_file_info_get_etag (info)) : NULL;
    }

out:
  temp_clear (&t);
  close (t.dirfd);
  return ok;
}

gboolean
tress_file_replace (GFile *file, const char *contents, gsize len, const char *etag, gboolean backup,
                    char **new_etag, GCancellable *cancellable, GError **error)
{
  g_autoptr (GFile) target = resolve_link (file, cancellable);
  g_autofree char *path = g_file_get_path (target);
  g_autoptr (GFileInfo) info = NULL;

  if (path != NULL)
    return replace_local (target, path, contents, len, etag, backup, new_etag, cancellable, error);

  info = g_file_query_info (target, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE,
                            cancellable, NULL);
  if (info != NULL && g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_autofree char *name = g_file_get_parse_name (target);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _ ("“%s” is not a regular file: nothing was written"), name);
      return FALSE;
    }
  return replace_with_gio (target, contents, len, etag, backup, new_etag, cancellable, error);
}

void
tress_file_ignore_size_limit_signal (void)
{
  signal (SIGXFSZ, SIG_IGN);
}
