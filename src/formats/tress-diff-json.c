/* tress-diff-json.c: what differs between two JSON trees, and two dumps a piece at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-diff-private.h"

#include <math.h>
#include <string.h>

/* ---- JSON trees ------------------------------------------------------------ */

static gboolean
skipped (const char *name, const char *const *skip)
{
  for (guint i = 0; skip != NULL && skip[i] != NULL; i++)
    if (strcmp (name, skip[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
is_base64_member (const char *name)
{
  return name != NULL && g_str_has_suffix (name, "base64");
}

static gboolean
scalar_array (JsonNode *n)
{
  JsonArray *a;

  if (!JSON_NODE_HOLDS_ARRAY (n))
    return FALSE;
  a = json_node_get_array (n);
  for (guint i = 0; i < json_array_get_length (a); i++)
    if (!JSON_NODE_HOLDS_VALUE (json_array_get_element (a, i))
        && !JSON_NODE_HOLDS_NULL (json_array_get_element (a, i)))
      return FALSE;
  return TRUE;
}

static gboolean
leaf (JsonNode *n)
{
  return JSON_NODE_HOLDS_VALUE (n) || JSON_NODE_HOLDS_NULL (n) || scalar_array (n);
}

static gboolean
value_equal (JsonNode *a, JsonNode *b)
{
  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;
  if (JSON_NODE_HOLDS_NULL (a))
    return TRUE;
  if (JSON_NODE_HOLDS_ARRAY (a))
    {
      JsonArray *x = json_node_get_array (a), *y = json_node_get_array (b);
      if (json_array_get_length (x) != json_array_get_length (y))
        return FALSE;
      for (guint i = 0; i < json_array_get_length (x); i++)
        if (!value_equal (json_array_get_element (x, i), json_array_get_element (y, i)))
          return FALSE;
      return TRUE;
    }
  if (json_node_get_value_type (a) == G_TYPE_STRING
      || json_node_get_value_type (b) == G_TYPE_STRING)
    return json_node_get_value_type (a) == json_node_get_value_type (b)
           && g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;
  if (json_node_get_value_type (a) == G_TYPE_BOOLEAN
      || json_node_get_value_type (b) == G_TYPE_BOOLEAN)
    return json_node_get_value_type (a) == json_node_get_value_type (b)
           && json_node_get_boolean (a) == json_node_get_boolean (b);
  if (json_node_get_value_type (a) == G_TYPE_INT64 && json_node_get_value_type (b) == G_TYPE_INT64)
    return json_node_get_int (a) == json_node_get_int (b);
  return json_node_get_double (a) == json_node_get_double (b);
}

#define LEAF_TEXT_MAX 12

static void
append_leaf (GString *s, JsonNode *n)
{
  if (JSON_NODE_HOLDS_NULL (n))
    g_string_append (s, "null");
  else if (JSON_NODE_HOLDS_OBJECT (n))
    g_string_append (s, "{…}");
  else if (JSON_NODE_HOLDS_ARRAY (n))
    {
      JsonArray *a = json_node_get_array (n);
      guint len = json_array_get_length (a);

      g_string_append_c (s, '[');
      for (guint i = 0; i < len && i < LEAF_TEXT_MAX; i++)
        {
          if (i > 0)
            g_string_append (s, ", ");
          append_leaf (s, json_array_get_element (a, i));
        }
      if (len > LEAF_TEXT_MAX)
        g_string_append_printf (s, ", … (%u)", len);
      g_string_append_c (s, ']');
    }
  else if (json_node_get_value_type (n) == G_TYPE_STRING)
    {
      const char *v = json_node_get_string (n);
      if (strlen (v) > 40)
        g_string_append_printf (s, "\"%.37s…\"", v);
      else
        g_string_append_printf (s, "\"%s\"", v);
    }
  else if (json_node_get_value_type (n) == G_TYPE_BOOLEAN)
    g_string_append (s, json_node_get_boolean (n) ? "true" : "false");
  else if (json_node_get_value_type (n) == G_TYPE_INT64)
    g_string_append_printf (s, "%" G_GINT64_FORMAT, json_node_get_int (n));
  else
    _tress_diff_append_number (s, json_node_get_double (n));
}

static char *
pointer_append (const char *path, const char *token)
{
  g_autoptr (GString) s = g_string_new (path);

  g_string_append_c (s, '/');
  for (const char *p = token; *p; p++)
    if (*p == '~')
      g_string_append (s, "~0");
    else if (*p == '/')
      g_string_append (s, "~1");
    else
      g_string_append_c (s, *p);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* Two base64 members: which bytes differ (at @base, the object's "offset"). */
static void
diff_bytes (const char *path, JsonNode *a, JsonNode *b, gint64 base, TressDiff *out)
{
  gsize la = 0, lb = 0, n_diff = 0, first = 0, last = 0;
  g_autofree guchar *x = NULL, *y = NULL;
  g_autoptr (GString) text = g_string_new (NULL);
  JsonObject *d;

  if (json_node_get_value_type (a) != G_TYPE_STRING
      || json_node_get_value_type (b) != G_TYPE_STRING)
    return;
  x = g_base64_decode (json_node_get_string (a), &la);
  y = g_base64_decode (json_node_get_string (b), &lb);
  for (gsize i = 0; i < MIN (la, lb); i++)
    if (x[i] != y[i])
      {
        if (n_diff++ == 0)
          first = i;
        last = i;
      }
  if (n_diff == 0 && la == lb)
    return;
  d = json_object_new ();
  json_object_set_int_member (d, "size_a", (gint64)la);
  json_object_set_int_member (d, "size_b", (gint64)lb);
  json_object_set_int_member (d, "bytes_differing", (gint64)n_diff);
  if (n_diff > 0)
    {
      json_object_set_int_member (d, "first", base + (gint64)first);
      json_object_set_int_member (d, "last", base + (gint64)last);
      g_string_append_printf (text, "%" G_GSIZE_FORMAT " byte%s differ%s", n_diff,
                              n_diff == 1 ? "" : "s", n_diff == 1 ? "s" : "");
      if (n_diff == 1)
        g_string_append_printf (text, " at 0x%" G_GINT64_MODIFIER "x", base + (gint64)first);
      else
        g_string_append_printf (text,
                                " from 0x%" G_GINT64_MODIFIER "x to 0x%" G_GINT64_MODIFIER "x",
                                base + (gint64)first, base + (gint64)last);
    }
  if (la != lb)
    g_string_append_printf (text, "%s%" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT " bytes",
                            n_diff > 0 ? "; " : "", la, lb);
  tress_diff_add (out, path, "bytes", d, "bytes outside the model: %s", text->str);
}

static const char *
kind_of (const char *path)
{
  return strstr (path, "/records/") != NULL ? "record" : "member";
}

static void diff_node (JsonNode *a, JsonNode *b, const char *path, const char *const *skip,
                       TressDiff *out);

static void
diff_object (JsonObject *a, JsonObject *b, const char *path, const char *const *skip,
             TressDiff *out)
{
  g_autoptr (GList) ma = json_object_get_members (a);
  g_autoptr (GList) mb = json_object_get_members (b);
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GPtrArray) deeper = g_ptr_array_new_with_free_func (g_free);
  JsonObject *detail = json_object_new ();
  gint64 base
      = json_object_has_member (a, "offset")
                && JSON_NODE_HOLDS_VALUE (json_object_get_member (a, "offset"))
                && json_node_get_value_type (json_object_get_member (a, "offset")) == G_TYPE_INT64
            ? json_object_get_int_member (a, "offset")
            : 0;
  gboolean root = path[0] == '\0';

  for (GList *l = ma; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *x = json_object_get_member (a, name), *y;
      g_autofree char *p = pointer_append (path, name);

      if (skipped (name, skip))
        continue;
      y = json_object_get_member (b, name);
      if (y == NULL)
        {
          tress_diff_add (out, p, kind_of (p), NULL, "only A has this member");
          continue;
        }
      if (is_base64_member (name))
        {
          diff_bytes (p, x, y, base, out);
          continue;
        }
      if (leaf (x) && leaf (y))
        {
          JsonObject *ab;

          if (value_equal (x, y))
            continue;
          if (root)
            {
              g_autoptr (GString) t = g_string_new (NULL);
              JsonObject *d = json_object_new ();

              append_leaf (t, x);
              g_string_append (t, " → ");
              append_leaf (t, y);
              json_object_set_member (d, "a", json_node_copy (x));
              json_object_set_member (d, "b", json_node_copy (y));
              tress_diff_add (out, p, kind_of (p), d, "%s %s", name, t->str);
              continue;
            }
          if (text->len > 0)
            g_string_append (text, ", ");
          g_string_append_printf (text, "%s ", name);
          append_leaf (text, x);
          g_string_append (text, " → ");
          append_leaf (text, y);
          ab = json_object_new ();
          json_object_set_member (ab, "a", json_node_copy (x));
          json_object_set_member (ab, "b", json_node_copy (y));
          json_object_set_object_member (detail, name, ab);
          continue;
        }
      g_ptr_array_add (deeper, g_strdup (name));
    }
  for (GList *l = mb; l != NULL; l = l->next)
    if (!skipped (l->data, skip) && !json_object_has_member (a, l->data))
      {
        g_autofree char *p = pointer_append (path, l->data);
        tress_diff_add (out, p, kind_of (p), NULL, "only B has this member");
      }
  if (text->len > 0)
    {
      JsonObject *d = json_object_new ();
      json_object_set_object_member (d, "members", json_object_ref (detail));
      tress_diff_add (out, path, kind_of (path), d, "%s", text->str);
    }
  json_object_unref (detail);
  for (guint i = 0; i < deeper->len; i++)
    {
      const char *name = deeper->pdata[i];
      g_autofree char *p = pointer_append (path, name);
      diff_node (json_object_get_member (a, name), json_object_get_member (b, name), p, skip, out);
    }
}

static void
diff_node (JsonNode *a, JsonNode *b, const char *path, const char *const *skip, TressDiff *out)
{
  if (JSON_NODE_HOLDS_OBJECT (a) && JSON_NODE_HOLDS_OBJECT (b))
    diff_object (json_node_get_object (a), json_node_get_object (b), path, skip, out);
  else if (JSON_NODE_HOLDS_ARRAY (a) && JSON_NODE_HOLDS_ARRAY (b) && (!leaf (a) || !leaf (b)))
    {
      JsonArray *x = json_node_get_array (a), *y = json_node_get_array (b);
      guint nx = json_array_get_length (x), ny = json_array_get_length (y);

      if (nx != ny)
        {
          JsonObject *d = json_object_new ();
          json_object_set_int_member (d, "count_a", nx);
          json_object_set_int_member (d, "count_b", ny);
          tress_diff_add (out, path, kind_of (path), d, "%u → %u elements (%s)", nx, ny,
                          nx < ny ? "added at the end" : "removed at the end");
        }
      for (guint i = 0; i < MIN (nx, ny); i++)
        {
          char token[16];
          g_autofree char *p = NULL;

          g_snprintf (token, sizeof token, "%u", i);
          p = pointer_append (path, token);
          diff_node (json_array_get_element (x, i), json_array_get_element (y, i), p, skip, out);
        }
    }
  else if (!value_equal (a, b))
    {
      g_autoptr (GString) t = g_string_new (NULL);
      JsonObject *d = json_object_new ();

      append_leaf (t, a);
      g_string_append (t, " → ");
      append_leaf (t, b);
      json_object_set_member (d, "a", json_node_copy (a));
      json_object_set_member (d, "b", json_node_copy (b));
      tress_diff_add (out, path, kind_of (path), d, "%s", t->str);
    }
}

void
tress_diff_json (JsonNode *a, JsonNode *b, const char *path, const char *const *skip,
                 TressDiff *out)
{
  diff_node (a, b, path, skip, out);
}

/* ---- dumps, a piece at a time ---------------------------------------------- */

/* The dumps of two models are compared as trees, but two whole trees cost
 * some ten times the files. First each dump is written once into digests
 * (a Shape: every object and array, in order, with the SHA-256 of its text);
 * then the pieces whose digests differ are captured and compared a batch at
 * a time, a large piece as its own members (the ones below it captured
 * empty) and each member that differs on its own. Identical files cost two
 * digest passes; unrelated ones a few passes, each holding a bounded part. */

/* The smallest batch of text (both dumps) captured at once. */
#define BATCH_MIN (256 * 1024)
/* A batch holds at most this part of the two dumps' text (and their trees
 * some five times as much). */
#define BATCH_PARTS 8

typedef struct
{
  const char *name; /* the member it is the value of, NULL in an array and at the top */
  guint index;      /* in its array */
  guint end;        /* one past its last descendant */
  guint count;      /* values */
  gboolean array;
  gboolean nested; /* an object or array is among its values */
  gsize size;      /* bytes of text */
  guint8 digest[16];
} Piece;

typedef struct
{
  GArray *pieces; /* Piece, in the order they begin */
  GArray *open;   /* guint: begun, not ended */
  GStringChunk *names;
} Shape;

static void
shape_begin (gpointer data, const char *member, guint index, gboolean array)
{
  Shape *shape = data;
  Piece p = { 0 };
  guint i = shape->pieces->len;

  p.name = member != NULL ? g_string_chunk_insert_const (shape->names, member) : NULL;
  p.index = index;
  p.array = array;
  g_array_append_val (shape->pieces, p);
  g_array_append_val (shape->open, i);
}

static void
shape_end (gpointer data, const guint8 *digest, gsize size, gboolean nested, guint count)
{
  Shape *shape = data;
  guint i = g_array_index (shape->open, guint, shape->open->len - 1);
  Piece *p = &g_array_index (shape->pieces, Piece, i);

  g_array_set_size (shape->open, shape->open->len - 1);
  memcpy (p->digest, digest, sizeof p->digest);
  p->size = size;
  p->nested = nested;
  p->count = count;
  p->end = shape->pieces->len;
}

static void
shape_init (Shape *shape, const TressFormat *format, gpointer model, const char *const *skip)
{
  static const TressJsonDigestFuncs funcs = { shape_begin, shape_end };
  g_autoptr (TressJsonWriter) w = tress_json_writer_new_digest (&funcs, shape);

  shape->pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  shape->open = g_array_new (FALSE, FALSE, sizeof (guint));
  shape->names = g_string_chunk_new (1024);
  tress_json_writer_capture_skip (w, skip);
  format->dump (model, w);
}

static void
shape_clear (Shape *shape)
{
  g_array_unref (shape->pieces);
  g_array_unref (shape->open);
  g_string_chunk_free (shape->names);
}

static const Piece *
piece (const Shape *shape, guint i)
{
  return &g_array_index (shape->pieces, Piece, i);
}

/* Whether piece @p can be compared on its own: not an array of plain values,
 * which is one leaf of its object (an empty array is either). */
static gboolean
piece_prunable (const Piece *p)
{
  return !p->array || p->nested || p->count == 0;
}

typedef struct
{
  char *path;
  gsize weight; /* text of both dumps it captures */
} Task;

static void
task_free (gpointer p)
{
  Task *t = p;

  g_free (t->path);
  g_free (t);
}

typedef struct
{
  const Shape *a, *b;
  GPtrArray *tasks;    /* Task, in the order of the dumps */
  GHashTable *prune_a; /* pointers captured empty in A's pieces */
  GHashTable *prune_b; /* and in B's */
  gsize unit;          /* the largest piece captured whole */
} Plan;

static Task *
plan_add (Plan *plan, const char *path, gsize weight)
{
  Task *t = g_new (Task, 1);

  t->path = g_strdup (path);
  t->weight = weight;
  g_ptr_array_add (plan->tasks, t);
  return t;
}

/* The child of piece @parent of @shape that is element @index or member @name, or -1. */
static int
child_of (const Shape *shape, guint parent, GHashTable *by_name, const char *name, guint index)
{
  const Piece *p = piece (shape, parent);

  if (by_name != NULL)
    {
      gpointer found;
      return g_hash_table_lookup_extended (by_name, name, NULL, &found)
                 ? (int)GPOINTER_TO_UINT (found)
                 : -1;
    }
  for (guint j = parent + 1; j < p->end; j = piece (shape, j)->end)
    {
      const Piece *c = piece (shape, j);
      if (p->array ? c->index == index : strcmp (c->name, name) == 0)
        return (int)j;
      if (p->array && c->index > index)
        break;
    }
  return -1;
}

static char *
child_path (const char *path, const Piece *p)
{
  char token[16];

  if (p->name != NULL)
    return pointer_append (path, p->name);
  g_snprintf (token, sizeof token, "%u", p->index);
  return pointer_append (path, token);
}

/* Tasks for pieces @ia of A and @ib of B at @path: none when the same, one
 * capture of both when small, else a capture without the pieces below and
 * their tasks. */
static void
plan_pieces (Plan *plan, guint ia, guint ib, const char *path)
{
  const Piece *pa = piece (plan->a, ia), *pb = piece (plan->b, ib);
  g_autoptr (GHashTable) by_name = NULL;
  gsize weight = pa->size + pb->size;
  Task *task;

  if (pa->size == pb->size && memcmp (pa->digest, pb->digest, sizeof pa->digest) == 0)
    return;
  if (pa->array != pb->array || (!pa->nested && !pb->nested) || weight <= plan->unit)
    {
      plan_add (plan, path, weight);
      return;
    }
  task = plan_add (plan, path, weight);
  if (!pb->array && pb->end - ib > 32)
    {
      by_name = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint j = ib + 1; j < pb->end; j = piece (plan->b, j)->end)
        g_hash_table_insert (by_name, (gpointer)piece (plan->b, j)->name, GUINT_TO_POINTER (j));
    }
  for (guint j = ia + 1; j < pa->end; j = piece (plan->a, j)->end)
    {
      const Piece *ca = piece (plan->a, j);
      int k = child_of (plan->b, ib, by_name, ca->name, ca->index);
      g_autofree char *p = child_path (path, ca);

      if (k < 0)
        {
          /* An element past B's last is only counted: captured empty. (A
           * member B lacks, or holds as a plain value, is captured.) */
          if (pa->array && ca->index >= pb->count && piece_prunable (ca))
            {
              g_hash_table_add (plan->prune_a, g_steal_pointer (&p));
              task->weight -= ca->size;
            }
          continue;
        }
      if (ca->array == piece (plan->b, k)->array && piece_prunable (ca)
          && piece_prunable (piece (plan->b, k)))
        {
          g_hash_table_add (plan->prune_a, g_strdup (p));
          g_hash_table_add (plan->prune_b, g_strdup (p));
          task->weight -= ca->size + piece (plan->b, k)->size;
          plan_pieces (plan, j, (guint)k, p);
        }
    }
  if (pb->array)
    for (guint j = ib + 1; j < pb->end; j = piece (plan->b, j)->end)
      {
        const Piece *cb = piece (plan->b, j);

        if (cb->index >= pa->count && piece_prunable (cb))
          {
            g_hash_table_add (plan->prune_b, child_path (path, cb));
            task->weight -= cb->size;
          }
      }
}

/* Captures the tasks [@from, @to) of both dumps and compares them in order. */
static void
diff_batch (const TressFormat *format, gpointer a, gpointer b, const Plan *plan, guint from,
            guint to, const char *const *skip, TressDiff *out)
{
  g_autoptr (GHashTable) wanted = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (TressJsonWriter) wa = NULL;
  g_autoptr (TressJsonWriter) wb = NULL;

  for (guint i = from; i < to; i++)
    g_hash_table_add (wanted, ((Task *)plan->tasks->pdata[i])->path);
  wa = tress_json_writer_new_capture (wanted);
  tress_json_writer_capture_skip (wa, skip);
  tress_json_writer_capture_prune (wa, plan->prune_a);
  format->dump (a, wa);
  wb = tress_json_writer_new_capture (wanted);
  tress_json_writer_capture_skip (wb, skip);
  tress_json_writer_capture_prune (wb, plan->prune_b);
  format->dump (b, wb);
  for (guint i = from; i < to; i++)
    {
      const char *path = ((Task *)plan->tasks->pdata[i])->path;
      JsonNode *x = tress_json_writer_get_captured (wa, path);
      JsonNode *y = tress_json_writer_get_captured (wb, path);

      if (x != NULL && y != NULL)
        diff_node (x, y, path, skip, out);
    }
}

void
_tress_diff_diff_dumps (const TressFormat *format, gpointer a, gpointer b, const char *const *skip,
                        TressDiff *out)
{
  Shape sa, sb;
  Plan plan = { &sa, &sb, NULL, NULL, NULL, 0 };
  gsize batch, weight = 0;
  guint from = 0;

  shape_init (&sa, format, a, skip);
  shape_init (&sb, format, b, skip);
  if (sa.pieces->len > 0 && sb.pieces->len > 0)
    {
      batch = MAX (BATCH_MIN, (piece (&sa, 0)->size + piece (&sb, 0)->size) / BATCH_PARTS);
      plan.unit = batch / 4;
      plan.tasks = g_ptr_array_new_with_free_func (task_free);
      plan.prune_a = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      plan.prune_b = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      plan_pieces (&plan, 0, 0, "");
      shape_clear (&sa);
      shape_clear (&sb);
      for (guint i = 0; i < plan.tasks->len; i++)
        {
          gsize w = ((Task *)plan.tasks->pdata[i])->weight;

          if (i > from && weight + w > batch)
            {
              diff_batch (format, a, b, &plan, from, i, skip, out);
              from = i;
              weight = 0;
            }
          weight += w;
        }
      if (from < plan.tasks->len)
        diff_batch (format, a, b, &plan, from, plan.tasks->len, skip, out);
      g_ptr_array_unref (plan.tasks);
      g_hash_table_unref (plan.prune_a);
      g_hash_table_unref (plan.prune_b);
    }
  else
    {
      shape_clear (&sa);
      shape_clear (&sb);
    }
}
