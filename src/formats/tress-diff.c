/* tress-diff.c: what differs between two files of one format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-diff-private.h"

#include <math.h>
#include <string.h>

static void
item_free (gpointer p)
{
  TressDiffItem *item = p;

  g_free (item->path);
  g_free (item->kind);
  g_free (item->text);
  g_clear_pointer (&item->detail, json_object_unref);
  g_free (item);
}

TressDiff *
tress_diff_new (void)
{
  TressDiff *diff = g_new0 (TressDiff, 1);

  diff->keep = G_MAXUINT;
  diff->details = TRUE;
  diff->items = g_ptr_array_new_with_free_func (item_free);
  diff->kinds = g_ptr_array_new_with_free_func (g_free);
  diff->counts = g_array_new (FALSE, TRUE, sizeof (guint));
  diff->kept = g_array_new (FALSE, TRUE, sizeof (guint));
  return diff;
}

void
tress_diff_free (TressDiff *diff)
{
  if (diff == NULL)
    return;
  g_ptr_array_unref (diff->items);
  g_ptr_array_unref (diff->kinds);
  g_array_unref (diff->counts);
  g_array_unref (diff->kept);
  g_free (diff->largest_curve);
  g_free (diff);
}

void
tress_diff_set_keep (TressDiff *diff, guint per_kind)
{
  diff->keep = per_kind;
}

void
tress_diff_set_details (TressDiff *diff, gboolean details)
{
  diff->details = details;
}

void
tress_diff_set_func (TressDiff *diff, TressDiffFunc func, gpointer user_data)
{
  diff->func = func;
  diff->func_data = user_data;
}

/* The index of @kind among the kinds found, or -1. */
static int
kind_index (const TressDiff *diff, const char *kind)
{
  for (guint k = 0; k < diff->kinds->len; k++)
    if (strcmp (diff->kinds->pdata[k], kind) == 0)
      return (int)k;
  return -1;
}

gboolean
tress_diff_wants (const TressDiff *diff, const char *kind)
{
  int k;

  if (diff->func != NULL || diff->keep == G_MAXUINT)
    return TRUE;
  k = kind_index (diff, kind);
  return k < 0 ? diff->keep > 0 : g_array_index (diff->kept, guint, k) < diff->keep;
}

gboolean
tress_diff_wants_details (const TressDiff *diff)
{
  return diff->details;
}

/* Counts an item of @kind; TRUE when it is to be kept. */
static gboolean
count_item (TressDiff *diff, const char *kind)
{
  int k = kind_index (diff, kind);
  guint zero = 0, *kept;

  if (k < 0)
    {
      g_ptr_array_add (diff->kinds, g_strdup (kind));
      g_array_append_val (diff->counts, zero);
      g_array_append_val (diff->kept, zero);
      k = (int)diff->kinds->len - 1;
    }
  g_array_index (diff->counts, guint, k)++;
  diff->n_items++;
  kept = &g_array_index (diff->kept, guint, k);
  if (*kept >= diff->keep)
    return FALSE;
  (*kept)++;
  return TRUE;
}

/* Adds an item whose text is @text (taken). */
static void
add_item (TressDiff *diff, const char *path, const char *kind, JsonObject *detail, char *text)
{
  TressDiffItem *item = g_new0 (TressDiffItem, 1);
  gboolean keep = count_item (diff, kind);

  item->path = g_strdup (path);
  item->kind = g_strdup (kind);
  item->text = text;
  item->detail = diff->details ? detail : NULL;
  if (!diff->details && detail != NULL)
    json_object_unref (detail);
  if (diff->func != NULL)
    diff->func (item, diff->func_data);
  if (keep)
    g_ptr_array_add (diff->items, item);
  else
    item_free (item);
}

void
tress_diff_add (TressDiff *diff, const char *path, const char *kind, JsonObject *detail,
                const char *format, ...)
{
  va_list args;

  if (!tress_diff_wants (diff, kind))
    {
      count_item (diff, kind);
      if (detail != NULL)
        json_object_unref (detail);
      return;
    }
  va_start (args, format);
  add_item (diff, path, kind, detail, g_strdup_vprintf (format, args));
  va_end (args);
}

/* A curve's largest difference, for the summary. */
void
_tress_diff_note_largest (TressDiff *diff, const char *curve, double largest, double at_frame)
{
  if (!isfinite (largest) || !(largest > 0) || (diff->has_largest && !(largest > diff->largest)))
    return;
  diff->has_largest = TRUE;
  diff->largest = largest;
  diff->at_frame = at_frame;
  g_free (diff->largest_curve);
  diff->largest_curve = g_strdup (curve);
}

guint
tress_diff_get_n_items (const TressDiff *diff)
{
  return diff->n_items;
}

guint
tress_diff_get_n_kinds (const TressDiff *diff)
{
  return diff->kinds->len;
}

const char *
tress_diff_get_kind (const TressDiff *diff, guint index, guint *count)
{
  g_return_val_if_fail (index < diff->kinds->len, NULL);
  if (count != NULL)
    *count = g_array_index (diff->counts, guint, index);
  return diff->kinds->pdata[index];
}

guint
tress_diff_get_n_kept (const TressDiff *diff)
{
  return diff->items->len;
}

const TressDiffItem *
tress_diff_get_item (const TressDiff *diff, guint index)
{
  g_return_val_if_fail (index < diff->items->len, NULL);
  return diff->items->pdata[index];
}

gboolean
tress_diff_get_largest (const TressDiff *diff, double *largest, const char **curve,
                        double *at_frame)
{
  if (largest != NULL)
    *largest = diff->has_largest ? diff->largest : 0;
  if (curve != NULL)
    *curve = diff->largest_curve;
  if (at_frame != NULL)
    *at_frame = diff->has_largest ? diff->at_frame : 0;
  return diff->has_largest;
}

/* A number for people: as short as it reads well, exact when it is whole. */
void
_tress_diff_append_number (GString *s, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isfinite (v) && v == floor (v) && fabs (v) < 1e15)
    g_string_append_printf (s, "%.0f", v);
  else
    g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.7g", v));
}

/* ---- models ---------------------------------------------------------------- */

void
tress_diff_models (const TressFormat *format, gpointer a, gpointer b, TressDiff *out)
{
  /* What the dump derives from other members (or the curves' keys say
   * better): left out of the member-by-member comparison. */
  static const char *const skip[] = {
    "stored_digest", "problems", "models",   "scene",      "objects",
    "groups",        "keys",     "raw_keys", "raw_frames", NULL,
  };

  if (format->curves != NULL)
    _tress_diff_diff_curves (format->curves, a, b, out);
  if (format->diff != NULL)
    format->diff (a, b, out);
  else if (format->dump != NULL)
    _tress_diff_diff_dumps (format, a, b, skip, out);
}

/* ---- output ---------------------------------------------------------------- */

/* @n items of @kind in a summary: "3 curves", "1 byte range". */
static void
append_count (GString *s, const char *kind, guint n)
{
  if (g_str_equal (kind, "bytes"))
    g_string_append_printf (s, "%u byte range%s", n, n == 1 ? "" : "s");
  else
    g_string_append_printf (s, "%u %s%s", n, kind, n == 1 ? "" : "s");
}

char *
tress_diff_summary (const TressDiff *diff)
{
  GString *s = g_string_new (NULL);

  if (diff->n_items == 0)
    return g_string_free (s, FALSE);
  g_string_append_printf (s, "%u difference%s: ", diff->n_items, diff->n_items == 1 ? "" : "s");
  for (guint k = 0; k < diff->kinds->len; k++)
    {
      if (k > 0)
        g_string_append (s, ", ");
      append_count (s, diff->kinds->pdata[k], g_array_index (diff->counts, guint, k));
    }
  if (diff->has_largest)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (s, "; the largest curve difference is %s, in %s",
                              g_ascii_formatd (buf, sizeof buf, "%.6g", diff->largest),
                              diff->largest_curve ? diff->largest_curve : "?");
      g_string_append_printf (s, " at frame %s",
                              g_ascii_formatd (buf, sizeof buf, "%g", diff->at_frame));
    }
  return g_string_free (s, FALSE);
}

char *
tress_diff_item_to_text (const TressDiffItem *item)
{
  return g_strdup_printf ("%s: %s", item->path[0] ? item->path : "/", item->text);
}

char *
tress_diff_to_text (const TressDiff *diff)
{
  GString *s = g_string_new (NULL);
  g_autofree char *summary = tress_diff_summary (diff);

  if (diff->n_items == 0)
    return g_string_free (s, FALSE);
  g_string_append_printf (s, "%s\n", summary);
  for (guint i = 0; i < diff->items->len; i++)
    {
      g_autofree char *line = tress_diff_item_to_text (diff->items->pdata[i]);
      g_string_append_printf (s, "%s\n", line);
    }
  for (guint k = 0; k < diff->kinds->len; k++)
    {
      guint n = g_array_index (diff->counts, guint, k);
      guint kept = g_array_index (diff->kept, guint, k);

      if (n > kept)
        g_string_append_printf (s, "… and %u more of kind %s (--all lists every one)\n", n - kept,
                                (const char *)diff->kinds->pdata[k]);
    }
  return g_string_free (s, FALSE);
}

static JsonObject *
item_object (const TressDiffItem *item)
{
  JsonObject *o = json_object_new ();

  json_object_set_string_member (o, "path", item->path);
  json_object_set_string_member (o, "kind", item->kind);
  json_object_set_string_member (o, "text", item->text);
  if (item->detail != NULL)
    {
      g_autoptr (GList) members = json_object_get_members (item->detail);
      for (GList *l = members; l != NULL; l = l->next)
        json_object_set_member (o, l->data,
                                json_node_copy (json_object_get_member (item->detail, l->data)));
    }
  return o;
}

JsonNode *
tress_diff_to_json (const char *format_id, const TressDiff *diff)
{
  JsonObject *root = json_object_new ();
  JsonArray *items = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (root, "format", format_id);
  json_object_set_boolean_member (root, "same", diff->n_items == 0);
  for (guint i = 0; i < diff->items->len; i++)
    json_array_add_object_element (items, item_object (diff->items->pdata[i]));
  json_object_set_array_member (root, "differences", items);
  json_node_take_object (node, root);
  return node;
}

void
tress_diff_item_write_json (const TressDiffItem *item, TressJsonWriter *w)
{
  tress_json_begin_object (w);
  tress_json_string_member (w, "path", item->path);
  tress_json_string_member (w, "kind", item->kind);
  tress_json_string_member (w, "text", item->text);
  if (item->detail != NULL)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init_ordered (&iter, item->detail);
      while (json_object_iter_next_ordered (&iter, &name, &member))
        {
          tress_json_member (w, name);
          tress_json_add_node (w, member);
        }
    }
  tress_json_end_object (w);
}
