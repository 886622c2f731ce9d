/* fuzz-json.c: libFuzzer target for tress-cli build (JSON text → file)
 *
 * Whatever the text, build refuses it with reasons at JSON Pointers, or gives
 * a model whose bytes open again; what it gives dumps and builds again to the
 * very same bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdlib.h>

#include "formats/tress-format.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static GBytes *
build (const TressFormat *format, const char *text, gsize len, gboolean must_work)
{
  g_autoptr (TressJsonReader) r = tress_json_reader_new (text, len);
  g_autoptr (GError) error = NULL;
  TressJsonBuild out = { NULL, NULL, 0 };
  GPtrArray *problems;
  GBytes *bytes;

  if (!format->build (r, &out))
    {
      problems = tress_json_reader_get_problems (r);
      if (must_work || tress_json_reader_n_errors (r) == 0)
        abort ();
      for (guint i = 0; i < problems->len; i++)
        {
          const TressProblem *p = g_ptr_array_index (problems, i);
          if (p->location == NULL || p->message == NULL || p->message[0] == '\0')
            abort ();
        }
      return NULL;
    }
  if (out.model == NULL)
    abort ();
  bytes = format->serialize (out.model, &error);
  if (bytes == NULL)
    abort ();
  format->free (out.model);
  g_clear_pointer (&out.original, g_bytes_unref);
  return bytes;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (TressJsonReader) r = tress_json_reader_new ((const char *)data, size);
  g_autofree char *format_id = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GBytes) again = NULL;
  g_autoptr (GBytes) text = NULL;
  g_autoptr (GError) error = NULL;
  const TressFormat *format;
  gint64 version = 0;
  gpointer model;
  TressJsonWriter *w;

  if (!tress_json_reader_read_header (r, &format_id, &version))
    return 0;
  format = tress_format_lookup (format_id);
  if (format == NULL || format->build == NULL)
    return 0;
  bytes = build (format, (const char *)data, size, FALSE);
  if (bytes == NULL)
    return 0;
  /* what build made opens, and goes through dump → build unchanged */
  model = format->parse (bytes, "fuzz", &error);
  if (model == NULL)
    abort ();
  w = tress_json_writer_new ();
  format->dump (model, w);
  format->free (model);
  text = tress_json_writer_free_to_bytes (w);
  again = build (format, g_bytes_get_data (text, NULL), g_bytes_get_size (text), TRUE);
  if (!g_bytes_equal (bytes, again))
    abort ();
  return 0;
}
