/* test-cli-kill.c: tress-cli killed while it writes, and under a file size limit
 *
 * tress-cli writes a 54 MB creature (generate-demo) and is killed with SIGKILL
 * at random moments: mostly while its new file is open (found in
 * /proc/PID/fd), some anywhere in its run. After each kill the output is
 * absent (a new file) or holds its old bytes, or it is the complete new file;
 * no temporary file is left, except (over an existing file, where O_TMPFILE
 * is used) a complete one from a kill in the instant between its naming and
 * the rename, which the next save removes.
 *
 * The runs write to /dev/shm where it is a tmpfs with room (fast, and no
 * gigabytes of disk writes for a test), else to the temporary folder;
 * TRESS_TEST_KILL_DIR names another folder (a disk, a network share).
 *
 * N_KILLS (50) kills for each of a new and an existing OUT. A sanitizer
 * build (CI runs the suite a second time so, and there a run costs several
 * times more) makes N_KILLS_SANITIZED of each; TRESS_TEST_KILLS=N asks for N.
 * What a kill costs is mostly memory traffic (the 54 MB made, written into
 * the page cache, read back): OUT is checked through a mapping, not a copy.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tress-test-utils.h"

#define N_KILLS 50
#define N_KILLS_SANITIZED 10

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static guint n_kills;
#define RIBBONS "100000" /* 54 MB */

static GBytes *new_bytes; /* what generate-demo writes */
static GBytes *old_bytes; /* what OUT holds before, for an existing OUT */

static char *kill_root;

#define TMPFS_MAGIC_ 0x01021994

static void
remove_kill_root (void)
{
  g_autoptr (GDir) top = kill_root != NULL ? g_dir_open (kill_root, 0, NULL) : NULL;
  const char *name;

  while (top != NULL && (name = g_dir_read_name (top)) != NULL)
    {
      g_autofree char *sub = g_build_filename (kill_root, name, NULL);
      g_autoptr (GDir) inner = g_dir_open (sub, 0, NULL);
      const char *file;

      while (inner != NULL && (file = g_dir_read_name (inner)) != NULL)
        {
          g_autofree char *path = g_build_filename (sub, file, NULL);
          g_unlink (path);
        }
      g_remove (sub); /* a folder of runs, or the old OUT */
    }
  if (kill_root != NULL)
    g_rmdir (kill_root);
}

/* Where the runs write: see the top of the file. */
static const char *
kill_dir (void)
{
  struct statfs fs;
  struct statvfs vfs;

  if (kill_root != NULL)
    return kill_root;
  if (g_getenv ("TRESS_TEST_KILL_DIR") != NULL)
    kill_root = g_build_filename (g_getenv ("TRESS_TEST_KILL_DIR"), "tress-kill-XXXXXX", NULL);
  else if (statfs ("/dev/shm", &fs) == 0 && fs.f_type == TMPFS_MAGIC_
           && statvfs ("/dev/shm", &vfs) == 0 && (guint64)vfs.f_bavail * vfs.f_frsize > 1u << 30
           && access ("/dev/shm", W_OK) == 0)
    kill_root = g_strdup ("/dev/shm/tress-kill-XXXXXX");
  else
    kill_root = g_build_filename (tress_test_tmpdir (), "tress-kill-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (kill_root));
  atexit (remove_kill_root);
  return kill_root;
}

static GBytes *
read_path (const char *path)
{
  char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &contents, &len, NULL))
    return NULL;
  return g_bytes_new_take (contents, len);
}

/* @path's bytes without a copy: a mapping of its pages (valid until the
 * file is written again: only while no writer runs). */
static GBytes *
map_path (const char *path)
{
  g_autoptr (GMappedFile) mapped = g_mapped_file_new (path, FALSE, NULL);

  return mapped != NULL ? g_mapped_file_get_bytes (mapped) : NULL;
}

static char **
generate_argv (const char *out)
{
  const char *cli = g_getenv ("TRESS_CLI");
  const char *argv[] = { cli, "generate-demo", "cha", "--ribbons", RIBBONS, "-o", out, NULL };

  g_assert_nonnull (cli);
  return g_strdupv ((char **)argv);
}

/* Whether process @pid has a file open in @dir (its new file). */
static gboolean
writes_in (GPid pid, const char *dir)
{
  g_autofree char *fds = g_strdup_printf ("/proc/%d/fd", (int)pid);
  g_autoptr (GDir) listing = g_dir_open (fds, 0, NULL);
  gsize n = strlen (dir);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *link = g_build_filename (fds, name, NULL);
      g_autofree char *target = g_file_read_link (link, NULL);

      if (target != NULL && strncmp (target, dir, n) == 0 && target[n] == '/')
        return TRUE;
    }
  return FALSE;
}

static GPid
spawn_writer (const char *out)
{
  g_auto (GStrv) argv = generate_argv (out);
  g_autoptr (GError) error = NULL;
  GPid pid = 0;

  g_spawn_async (NULL, argv, NULL,
                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL
                     | G_SPAWN_STDERR_TO_DEV_NULL,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  return pid;
}

static int
reap (GPid pid)
{
  int status = 0;

  while (waitpid (pid, &status, 0) < 0)
    g_assert_cmpint (errno, ==, EINTR);
  return status;
}

static gboolean
exited (GPid pid)
{
  siginfo_t info = { 0 };

  return waitid (P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

/* One unkilled run: how long it takes, and how long its new file is open
 * before it ends (microseconds). */
static void
calibrate (const char *dir, const char *out, gint64 *total, gint64 *writing)
{
  gint64 start = g_get_monotonic_time (), seen = 0;
  GPid pid = spawn_writer (out);
  int status;

  while (!exited (pid))
    {
      if (seen == 0 && writes_in (pid, dir))
        seen = g_get_monotonic_time ();
      g_usleep (500);
    }
  status = reap (pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  *total = g_get_monotonic_time () - start;
  *writing = seen > 0 ? g_get_monotonic_time () - seen : 0;
}

static gboolean
supports_tmpfile (const char *dir)
{
#ifdef O_TMPFILE
  int fd = open (dir, O_TMPFILE | O_WRONLY, 0600);

  if (fd >= 0)
    {
      close (fd);
      return TRUE;
    }
#endif
  return FALSE;
}

/* The names in @dir other than @keep. */
static GPtrArray *
others_in (const char *dir, const char *keep)
{
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    if (g_strcmp0 (name, keep) != 0)
      g_ptr_array_add (names, g_strdup (name));
  return names;
}

static void
kill_while_writing (gboolean existing)
{
  g_autofree char *dir = g_build_filename (kill_dir (), existing ? "existing" : "new", NULL);
  g_autofree char *out = g_build_filename (dir, "out.cha", NULL);
  g_autofree char *old = g_build_filename (kill_dir (), "old.cha", NULL);
  gboolean tmpfile = FALSE;
  gint64 total = 0, writing = 0;
  guint mid_write = 0, finished = 0, left_temp = 0;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  tmpfile = supports_tmpfile (dir);
  calibrate (dir, out, &total, &writing);
  if (new_bytes == NULL)
    new_bytes = read_path (out);
  g_assert_cmpuint (g_bytes_get_size (new_bytes), >, 50 * 1000 * 1000);
  g_test_message ("in %s a run takes %.0f ms, %.0f ms of it with the new file open; O_TMPFILE %s",
                  dir, total / 1000.0, writing / 1000.0,
                  tmpfile ? "works here" : "does not work here");
  if (existing && !g_file_test (old, G_FILE_TEST_EXISTS))
    g_assert_true (g_file_set_contents (old, g_bytes_get_data (old_bytes, NULL),
                                        g_bytes_get_size (old_bytes), NULL));
  g_assert_cmpint (writing, >, 0);

  /* Until n_kills kills have hit a writing process (each fifth kill is at any
   * moment of the run, the others while the new file is open). */
  for (guint i = 0; mid_write < n_kills; i++)
    {
      g_autoptr (GBytes) now = NULL;
      g_autoptr (GPtrArray) others = NULL;
      gboolean anywhere = i % 5 == 4;
      gint64 start, delay, opened = 0;
      GPid pid;
      int status;

      g_assert_cmpuint (i, <, 4 * n_kills);
      /* The old file, in no time: a second link to a copy made once (a save
       * renames its new file over the name and leaves the copy alone). */
      g_unlink (out);
      if (existing)
        g_assert_cmpint (link (old, out), ==, 0);

      pid = spawn_writer (out);
      start = g_get_monotonic_time ();
      if (anywhere)
        delay = g_random_int_range (0, (gint32)MAX (total, 1));
      else
        {
          /* From the moment the new file is open, to when the run would end
           * (the shortest time seen: the machine may be busier or not). */
          while (!exited (pid) && !writes_in (pid, dir))
            g_usleep (500);
          start = opened = g_get_monotonic_time ();
          delay = g_random_int_range (0, (gint32)MAX (writing, 1));
        }
      while (!exited (pid) && g_get_monotonic_time () - start < delay)
        g_usleep (100);
      if (!exited (pid))
        {
          mid_write += writes_in (pid, dir);
          kill (pid, SIGKILL);
        }
      else if (opened > 0)
        writing = MIN (writing, g_get_monotonic_time () - opened);
      status = reap (pid);
      if (WIFEXITED (status))
        {
          g_assert_cmpint (WEXITSTATUS (status), ==, 0);
          finished++;
        }
      else
        g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);

      /* OUT: absent or old, or the whole new file; never anything else. */
      now = map_path (out);
      if (now == NULL)
        g_assert_false (existing);
      else if (existing && g_bytes_equal (now, old_bytes))
        ;
      else
        tress_test_assert_bytes_equal (now, new_bytes);

      /* Nothing else in the folder, but for a complete new file under its
       * temporary name, left by a kill between its naming and the rename. */
      others = others_in (dir, "out.cha");
      for (guint k = 0; k < others->len; k++)
        {
          const char *name = g_ptr_array_index (others, k);
          g_autofree char *path = g_build_filename (dir, name, NULL);
          g_autoptr (GBytes) temp = map_path (path);

          g_assert_true (g_str_has_prefix (name, ".out.cha.tress-"));
          if (tmpfile)
            {
              g_assert_true (existing);
              tress_test_assert_bytes_equal (temp, new_bytes);
            }
          left_temp++;
        }
      /* The next save removes what an interrupted one left. */
      if (others->len > 0)
        {
          g_auto (GStrv) argv = generate_argv (out);
          g_autoptr (GPtrArray) after = NULL;

          g_assert_cmpint (tress_test_run_cli ((const char *const *)argv + 1, NULL, NULL), ==, 0);
          after = others_in (dir, "out.cha");
          g_assert_cmpuint (after->len, ==, 0);
        }
    }
  g_test_message ("%u kills with the new file open, %u runs ended before the kill, %u left a "
                  "temporary file (removed by the next save)",
                  mid_write, finished, left_temp);
  if (tmpfile && !existing)
    g_assert_cmpuint (left_temp, ==, 0);
}

static void
test_kill_new (void)
{
  kill_while_writing (FALSE);
}

static void
test_kill_existing (void)
{
  kill_while_writing (TRUE);
}

static void
limit_file_size (gpointer user_data)
{
  struct rlimit limit = { 1024 * 1024, 1024 * 1024 };

  setrlimit (RLIMIT_FSIZE, &limit);
}

/* Under `ulimit -f` (1 MiB here): exit status 3, a message saying so, the old
 * file (or none) in place and no temporary file. */
static void
test_size_limit (void)
{
  g_autofree char *dir = g_build_filename (kill_dir (), "limit", NULL);
  g_autofree char *out = g_build_filename (dir, "out.cha", NULL);
  g_autoptr (GBytes) after = NULL;
  g_autoptr (GPtrArray) others = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  for (guint round = 0; round < 2; round++)
    {
      g_auto (GStrv) argv = generate_argv (out);
      g_autofree char *err = NULL;
      g_autoptr (GError) error = NULL;
      int status = 0;

      if (round == 1)
        g_assert_true (g_file_set_contents (out, "old", 3, NULL));
      g_spawn_sync (NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, limit_file_size, NULL, NULL, &err,
                    &status, &error);
      g_assert_no_error (error);
      g_test_message ("%s", err);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 3);
      g_assert_nonnull (strstr (err, "file size limit"));
      g_assert_nonnull (strstr (err, "out.cha"));
      after = read_path (out);
      if (round == 0)
        g_assert_null (after);
      else
        g_assert_cmpmem (g_bytes_get_data (after, NULL), g_bytes_get_size (after), "old", 3);
      g_clear_pointer (&after, g_bytes_unref);
      g_clear_pointer (&others, g_ptr_array_unref);
      others = others_in (dir, "out.cha");
      g_assert_cmpuint (others->len, ==, 0);
    }
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *old_path = NULL;
  const char *gen_old[] = { "generate-demo", "cha", "--ribbons", "99000", "-o", NULL, NULL };
  const char *kills;
  int status;

  g_test_init (&argc, &argv, NULL);
  kills = g_getenv ("TRESS_TEST_KILLS");
  n_kills = kills != NULL ? (guint)g_ascii_strtoull (kills, NULL, 10)
                          : (SANITIZED ? N_KILLS_SANITIZED : N_KILLS);
  g_assert_cmpuint (n_kills, >, 0);
  if (n_kills != N_KILLS)
    g_test_message ("%u kills of each kind, not %u (%s)", n_kills, N_KILLS,
                    kills != NULL ? "TRESS_TEST_KILLS" : "a sanitizer build");
  old_path = g_build_filename (tress_test_tmpdir (), "old-source.cha", NULL);
  gen_old[5] = old_path;
  g_assert_cmpint (tress_test_run_cli (gen_old, NULL, NULL), ==, 0);
  old_bytes = read_path (old_path);
  g_unlink (old_path);

  g_test_add_func ("/cli/kill/new-file", test_kill_new);
  g_test_add_func ("/cli/kill/existing-file", test_kill_existing);
  g_test_add_func ("/cli/size-limit", test_size_limit);
  status = g_test_run ();
  g_clear_pointer (&new_bytes, g_bytes_unref);
  g_clear_pointer (&old_bytes, g_bytes_unref);
  return status;
}
