/* tress-file.c: replacing a file's contents so that a failure leaves it as it was
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-file.h"

#include <glib/gi18n-lib.h>

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

/* @file, or the file it links to. */
static GFile *
resolve_link (GFile *file, GCancellable *cancellable)
{
  g_autoptr (GFileInfo) info = g_file_query_info (
      file, G_FILE_ATTRIBUTE_STANDARD_IS_SYMLINK "," G_FILE_ATTRIBUTE_STANDARD_SYMLINK_TARGET,
      G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, NULL);
  g_autoptr (GFile) parent = NULL;

  if (info == NULL || !g_file_info_get_is_symlink (info)
      || g_file_info_get_symlink_target (info) == NULL)
    return g_object_ref (file);
  parent = g_file_get_parent (file);
  if (parent == NULL)
    return g_object_ref (file);
  return g_file_resolve_relative_path (parent, g_file_info_get_symlink_target (info));
}

gboolean
tress_file_replace (GFile *file, const char *contents, gsize len, const char *etag, gboolean backup,
                    char **new_etag, GCancellable *cancellable, GError **error)
{
  g_autoptr (GFile) target = resolve_link (file, cancellable);
  g_autoptr (GFileOutputStream) out = NULL;
  g_autoptr (GFileInfo) info = NULL;

  info = g_file_query_info (target, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE,
                            cancellable, NULL);
  if (info != NULL && g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_autofree char *name = g_file_get_parse_name (target);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _ ("“%s” is not a regular file: nothing was written"), name);
      return FALSE;
    }
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
