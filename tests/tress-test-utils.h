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
/* A fresh temporary folder, removed with its contents at exit. */
const char *tress_test_tmpdir (void);
/* Runs tress-cli (from $TRESS_CLI) with @argv (NULL-terminated, without the
 * program); returns the exit status and fills stdout/stderr when non-NULL. */
int tress_test_run_cli (const char *const *argv, char **out_stdout, char **out_stderr);
/* Asserts two byte buffers are equal, printing the first differing offset. */
void tress_test_assert_bytes_equal (GBytes *a, GBytes *b);

G_END_DECLS
