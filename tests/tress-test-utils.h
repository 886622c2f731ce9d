/* tress-test-utils.h: helpers shared by the test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Path of ../shared/samples/@rel, or NULL (after g_test_skip()) when absent. */
char *tress_test_sample_path (const char *rel);
/* Contents of a sample, or NULL (after g_test_skip()) when absent. */
GBytes *tress_test_load_sample (const char *rel);
/* Contents of the file at @path (a test failure when it cannot be read). */
GBytes *tress_test_read_file (const char *path);
/* A fresh temporary folder, removed with its contents at exit. */
const char *tress_test_tmpdir (void);
/* The path of @name in folder @dir of tress_test_tmpdir() (made if need be). */
char *tress_test_tmp_path (const char *dir, const char *name);
/* @bytes written to tress_test_tmp_path (@dir, @name); returns that path. */
char *tress_test_write_tmp (const char *dir, const char *name, GBytes *bytes);
/* Runs tress-cli (from $TRESS_CLI) with @argv (NULL-terminated, without the
 * program); returns the exit status and fills stdout/stderr when non-NULL (drops
 * them otherwise). */
int tress_test_run_cli (const char *const *argv, char **out_stdout, char **out_stderr);
/* Asserts two byte buffers are equal, printing the first differing offset. */
void tress_test_assert_bytes_equal (GBytes *a, GBytes *b);

/* A big-endian SARC archive of @n files (names, data), written from the
 * layout alone (not through tress-sarc.c). */
GBytes *tress_test_make_sarc (const char *const *names, GBytes *const *files, guint n);
/* Iterates the default main context until @cond holds; fails the test after
 * 30 s (UI tests: loads, redraws and GL frames arrive through the main loop). */
#define TRESS_TEST_WAIT_FOR(cond)                                                                  \
  G_STMT_START                                                                                     \
  {                                                                                                \
    gint64 deadline_ = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;                              \
    while (!(cond))                                                                                \
      {                                                                                            \
        if (g_get_monotonic_time () > deadline_)                                                   \
          g_error ("timed out waiting for %s", #cond);                                             \
        if (!g_main_context_iteration (NULL, FALSE))                                               \
          g_usleep (1000);                                                                         \
      }                                                                                            \
  }                                                                                                \
  G_STMT_END

/* Iterates the default main context for @ms milliseconds. */
void tress_test_spin (guint ms);

/* ---- dump / build (tress-cli dump and build, without a process) ---- */

#include "formats/tress-format.h"

/* The JSON text dump writes for @model. */
GBytes *tress_test_dump (const TressFormat *format, gpointer model);
/* Builds @text: the bytes the rebuilt model serializes to, or NULL with the
 * refusals (TressProblem, location = JSON Pointer) in *problems. Notes go to
 * *problems too when the build succeeds (may be NULL). */
GBytes *tress_test_build (const TressFormat *format, GBytes *text, GPtrArray **problems);
/* Parses @file, dumps it, builds the dump and asserts the bytes are the same;
 * returns the dump. */
GBytes *tress_test_assert_json_round_trip (const TressFormat *format, GBytes *file);
/* @text with every number outside strings written another way that reads
 * back to the same double: TRESS_TEST_RESPELL as "%.17e" ("2" becomes
 * "2.00000000000000000e+00"), TRESS_TEST_DROP_NEGATIVE_ZEROS "-0.0" and "-0"
 * as "0", as tools that keep no negative zero write them. */
typedef enum
{
  TRESS_TEST_RESPELL,
  TRESS_TEST_DROP_NEGATIVE_ZEROS,
} TressTestRewrite;
GBytes *tress_test_rewrite_numbers (GBytes *text, TressTestRewrite how, guint *n_rewritten);
/* Whether @problems holds an error at @path whose message contains @words. */
gboolean tress_test_has_problem (GPtrArray *problems, const char *path, const char *words);

G_END_DECLS
