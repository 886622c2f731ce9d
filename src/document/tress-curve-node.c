/* tress-curve-node.c: a row of the curves tree (a group or a curve)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-node-private.h"

#include <string.h>

#include <glib/gi18n.h>

enum
{
  NODE_PROP_0,
  NODE_PROP_NAME,
  NODE_PROP_REVISION,
  NODE_N_PROPS
};

static GParamSpec *node_props[NODE_N_PROPS];

G_DEFINE_FINAL_TYPE (TressCurveNode, tress_curve_node, G_TYPE_OBJECT)

static void
tress_curve_node_finalize (GObject *object)
{
  TressCurveNode *self = TRESS_CURVE_NODE (object);

  g_free (self->name);
  if (self->entries != NULL)
    for (guint i = 0; i < self->entries->len; i++)
      g_clear_object (&g_array_index (self->entries, TressCurveNodeEntry, i).group);
  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_pointer (&self->pending, g_array_unref);
  g_clear_object (&self->children);
  g_clear_pointer (&self->curve_indices, g_array_unref);
  G_OBJECT_CLASS (tress_curve_node_parent_class)->finalize (object);
}

static void
tress_curve_node_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TressCurveNode *self = TRESS_CURVE_NODE (object);

  switch (prop_id)
    {
    case NODE_PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case NODE_PROP_REVISION:
      g_value_set_uint (value, self->revision);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_curve_node_class_init (TressCurveNodeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tress_curve_node_finalize;
  object_class->get_property = tress_curve_node_get_property;
  node_props[NODE_PROP_NAME]
      = g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* Bumped whenever the curve (or a curve below the group) changed: rows re-read their columns. */
  node_props[NODE_PROP_REVISION]
      = g_param_spec_uint ("revision", NULL, NULL, 0, G_MAXUINT, 0,
                           G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, NODE_N_PROPS, node_props);
}

static void
tress_curve_node_init (TressCurveNode *self)
{
  self->curve_index = -1;
}

TressCurveNode *
_tress_curve_node_new (TressCurveDocument *document, const char *name, int curve_index)
{
  TressCurveNode *self = g_object_new (TRESS_TYPE_CURVE_NODE, NULL);

  self->name = g_strdup (name);
  self->curve_index = curve_index;
  self->document = document;
  return self;
}

const char *
tress_curve_node_get_name (TressCurveNode *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_NODE (self), NULL);
  return self->name;
}

int
tress_curve_node_get_curve_index (TressCurveNode *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_NODE (self), -1);
  return self->curve_index;
}

void
_tress_curve_node_add_group (TressCurveNode *self, TressCurveNode *child)
{
  TressCurveNodeEntry e = { g_object_ref (child), -1 };

  child->parent = self;
  if (self->children != NULL)
    {
      /* Children already made: the group is added to them at once. */
      g_list_store_append (self->children, child);
      g_object_unref (child);
      return;
    }
  if (self->entries == NULL)
    self->entries = g_array_sized_new (FALSE, FALSE, sizeof (TressCurveNodeEntry), 8);
  g_array_append_val (self->entries, e);
}

void
_tress_curve_node_add_curve (TressCurveNode *self, const char *name, int curve)
{
  TressCurveNodeEntry e = { NULL, curve };

  if (self->children != NULL)
    {
      TressCurveNode *leaf = _tress_curve_node_new (self->document, name, curve);

      leaf->parent = self;
      if (self->document != NULL)
        _tress_curve_document_leaf_made (self->document, leaf);
      g_list_store_append (self->children, leaf);
      g_object_unref (leaf);
      return;
    }
  if (self->entries == NULL)
    self->entries = g_array_sized_new (FALSE, FALSE, sizeof (TressCurveNodeEntry), 8);
  g_array_append_val (self->entries, e);
}

/* Level @depth of a curve's place in the tree (@c: its peek, with a path):
 * the animation kind first unless its path starts with it, then the levels
 * of its path, as the document's tree builder places it. Its text is
 * *@start (*@len bytes, in the path or the kind, not copied); *@level: the
 * level of the path (−1: the kind); *@is_last: the curve's own row. FALSE
 * past the last level. */
static gboolean
level_span (const TressCurvePeek *c, guint depth, const char **start, gsize *len, int *level,
            gboolean *is_last)
{
  const char *p = c->path, *end;
  gboolean kind_level = FALSE;

  if (c->kind != NULL && c->kind[0] != '\0')
    {
      gsize n0 = strcspn (p, "/");
      kind_level = strlen (c->kind) != n0 || strncmp (p, c->kind, n0) != 0;
    }
  if (kind_level && depth == 0)
    {
      *start = c->kind;
      *len = strlen (c->kind);
      *level = -1;
      *is_last = FALSE;
      return TRUE;
    }
  *level = (int)depth - (kind_level ? 1 : 0);
  for (int k = 0; k < *level; k++)
    {
      p = strchr (p, '/');
      if (p == NULL)
        return FALSE;
      p++;
    }
  end = strchr (p, '/');
  *start = p;
  *len = end != NULL ? (gsize)(end - p) : strlen (p);
  *is_last = end == NULL;
  return TRUE;
}

/* Level @depth of curve @index's place in the tree (see level_span; "Curve
 * N" for its path when it has none) copied into @part, and into @label
 * (unless NULL) a group's label there: the first level of the path names
 * its owner too. FALSE past the last level. */
static gboolean
tree_level (const TressCurvePeek *c, guint index, guint depth, GString *part, GString *label,
            gboolean *is_last)
{
  g_autofree char *numbered = NULL;
  TressCurvePeek named = *c;
  const char *start;
  gsize len;
  int level;

  if (named.path == NULL || named.path[0] == '\0')
    named.path = numbered = g_strdup_printf (_ ("Curve %u"), index);
  if (!level_span (&named, depth, &start, &len, &level, is_last))
    return FALSE;
  g_string_truncate (part, 0);
  g_string_append_len (part, start, (gssize)len);
  if (label == NULL)
    return TRUE;
  if (level == 0 && c->owner != NULL && c->owner[0] != '\0')
    g_string_printf (label, "%s (%s)", part->str, c->owner);
  else
    g_string_assign (label, part->str);
  return TRUE;
}

void
_tress_curve_node_split (TressCurveNode *self)
{
  g_autoptr (GArray) curves = g_steal_pointer (&self->pending);
  g_autoptr (GHashTable) groups = NULL;
  g_autoptr (GString) part = NULL, label = NULL, prev_part = NULL;
  TressCurveNode *prev = NULL;

  if (curves == NULL || self->document == NULL)
    return;
  groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  part = g_string_new (NULL);
  label = g_string_new (NULL);
  prev_part = g_string_new (NULL);
  for (guint k = 0; k < curves->len; k++)
    {
      guint i = g_array_index (curves, guint, k);
      TressCurvePeek c;
      gboolean last;
      TressCurveNode *g;

      _tress_curve_document_peek (self->document, i, &c);
      /* Consecutive curves of one group: found once, their level compared in place. */
      if (prev != NULL && c.path != NULL && c.path[0] != '\0')
        {
          const char *start;
          gsize len;
          int level;

          if (level_span (&c, self->depth, &start, &len, &level, &last) && !last
              && len == prev_part->len && memcmp (start, prev_part->str, len) == 0)
            {
              g_array_append_val (prev->pending, i);
              _tress_curve_document_set_leaf_group (self->document, i, prev);
              continue;
            }
        }
      if (!tree_level (&c, i, self->depth, part, NULL, &last))
        continue;
      if (last)
        {
          _tress_curve_document_set_leaf_group (self->document, i, self);
          if (c.path != NULL && c.path[0] != '\0')
            _tress_curve_node_add_curve (self, part->str, (int)i);
          else
            {
              /* Named for want of a path: its row made at once. */
              TressCurveNode *leaf = _tress_curve_node_new (self->document, part->str, (int)i);

              _tress_curve_node_add_group (self, leaf);
              _tress_curve_document_leaf_made (self->document, leaf);
              g_object_unref (leaf);
            }
          continue;
        }
      if ((g = g_hash_table_lookup (groups, part->str)) == NULL)
        {
          tree_level (&c, i, self->depth, part, label, &last);
          g = _tress_curve_node_new (self->document, label->str, -1);
          g->depth = self->depth + 1;
          g->pending = g_array_new (FALSE, FALSE, sizeof (guint));
          _tress_curve_node_add_group (self, g);
          g_hash_table_insert (groups, g_strdup (part->str), g);
          g_object_unref (g); /* @self holds it */
        }
      if (prev != g)
        g_string_assign (prev_part, part->str);
      prev = g;
      g_array_append_val (g->pending, i);
      _tress_curve_document_set_leaf_group (self->document, i, g);
    }
}

/* Makes the rows of the children held as entries. */
static void
node_make_children (TressCurveNode *self)
{
  g_autoptr (GPtrArray) items = NULL;

  if (self->children != NULL || self->curve_index >= 0)
    return;
  _tress_curve_node_split (self);
  self->children = g_list_store_new (TRESS_TYPE_CURVE_NODE);
  if (self->entries == NULL)
    return;
  items = g_ptr_array_new_full (self->entries->len, g_object_unref);
  for (guint i = 0; i < self->entries->len; i++)
    {
      TressCurveNodeEntry *e = &g_array_index (self->entries, TressCurveNodeEntry, i);

      if (e->group != NULL)
        g_ptr_array_add (items, g_steal_pointer (&e->group)); /* a group, or a row made before */
      else
        {
          /* Named as when the tree was built (the last level of its path);
           * a row of a document gone shows nothing. */
          TressCurveNode *leaf = _tress_curve_node_new (
              self->document,
              self->document != NULL
                  ? _tress_curve_document_leaf_name (self->document, (guint)e->curve)
                  : "",
              e->curve);

          leaf->parent = self;
          if (self->document != NULL)
            _tress_curve_document_leaf_made (self->document, leaf);
          g_ptr_array_add (items, leaf);
        }
    }
  g_clear_pointer (&self->entries, g_array_unref);
  g_list_store_splice (self->children, 0, 0, items->pdata, items->len);
}

void
_tress_curve_node_foreach_child (TressCurveNode *self,
                                 void (*func) (TressCurveNode *group, int curve, gpointer data),
                                 gpointer data)
{
  if (self->children == NULL)
    {
      _tress_curve_node_split (self);
      for (guint i = 0; self->entries != NULL && i < self->entries->len; i++)
        {
          TressCurveNodeEntry *e = &g_array_index (self->entries, TressCurveNodeEntry, i);

          if (e->group != NULL && e->group->curve_index >= 0)
            func (NULL, e->group->curve_index, data);
          else
            func (e->group, e->group != NULL ? -1 : e->curve, data);
        }
      return;
    }
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->children)); i++)
    {
      g_autoptr (TressCurveNode) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

      if (child->curve_index >= 0)
        func (NULL, child->curve_index, data);
      else
        func (child, -1, data);
    }
}

GListModel *
tress_curve_node_get_children (TressCurveNode *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_NODE (self), NULL);
  node_make_children (self);
  return self->children ? G_LIST_MODEL (self->children) : NULL;
}

void
tress_curve_node_collect_curves (TressCurveNode *self, GArray *indices)
{
  g_return_if_fail (TRESS_IS_CURVE_NODE (self));
  if (self->curve_index >= 0)
    {
      guint i = (guint)self->curve_index;
      g_array_append_val (indices, i);
      return;
    }
  /* The group's curves kept once listed: its key count then costs no walk
   * of the tree. */
  if (self->curve_indices == NULL)
    _tress_curve_node_fill_curve_indices (self);
  g_array_append_vals (indices, self->curve_indices->data, self->curve_indices->len);
}

static void
fill_child (TressCurveNode *group, int curve, gpointer data)
{
  TressCurveNode *node = data;

  if (group == NULL)
    {
      guint index = (guint)curve;
      g_array_append_val (node->curve_indices, index);
    }
  else
    {
      if (group->curve_indices == NULL)
        _tress_curve_node_fill_curve_indices (group);
      g_array_append_vals (node->curve_indices, group->curve_indices->data,
                           group->curve_indices->len);
    }
}

void
_tress_curve_node_fill_curve_indices (TressCurveNode *node)
{
  if (node->curve_index >= 0)
    return;
  g_clear_pointer (&node->curve_indices, g_array_unref);
  node->curve_indices = g_array_new (FALSE, FALSE, sizeof (guint));
  _tress_curve_node_foreach_child (node, fill_child, node);
}

gboolean
tress_curve_node_is_nested (TressCurveNode *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_NODE (self), FALSE);
  return self->nested;
}

static void collect_own (TressCurveNode *self, GArray *indices);

static void
collect_own_child (TressCurveNode *group, int curve, gpointer data)
{
  GArray *indices = data;

  if (group == NULL)
    {
      guint c = (guint)curve;
      g_array_append_val (indices, c);
    }
  else if (!group->nested)
    collect_own (group, indices);
}

static void
collect_own (TressCurveNode *self, GArray *indices)
{
  _tress_curve_node_foreach_child (self, collect_own_child, indices);
}

void
tress_curve_node_collect_own_curves (TressCurveNode *self, GArray *indices)
{
  guint before = indices->len;

  g_return_if_fail (TRESS_IS_CURVE_NODE (self));
  if (self->nested)
    collect_own (self, indices);
  /* A bone with no curves of its own (a scene's root object above its
   * animated ones) stands for those below it, not for nothing. */
  if (indices->len == before)
    tress_curve_node_collect_curves (self, indices);
}

void
_tress_curve_node_bump (TressCurveNode *self)
{
  self->revision++;
  g_object_notify_by_pspec (G_OBJECT (self), node_props[NODE_PROP_REVISION]);
}

static char *
format_number (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buf, sizeof buf, "%.6g", v);
  return g_strdup (buf);
}

char *
tress_curve_node_dup_column (TressCurveNode *self, const char *column)
{
  g_return_val_if_fail (TRESS_IS_CURVE_NODE (self), NULL);

  if (self->document == NULL)
    return g_strdup ("");
  if (self->curve_index < 0)
    {
      /* Groups show the total key count only. */
      if (g_strcmp0 (column, "keys") == 0)
        {
          g_autoptr (GArray) idx = g_array_new (FALSE, FALSE, sizeof (guint));
          guint total = 0;

          /* Counted without decoding the curves where the format can tell;
           * a group not split yet counts its curves as they are. */
          if (self->pending != NULL)
            g_array_append_vals (idx, self->pending->data, self->pending->len);
          else
            tress_curve_node_collect_curves (self, idx);
          for (guint i = 0; i < idx->len; i++)
            total += _tress_curve_document_n_keys (self->document, g_array_index (idx, guint, i));
          return g_strdup_printf ("%u", total);
        }
      return g_strdup ("");
    }
  else
    {
      const TressCurve *c;
      guint n;

      if (g_strcmp0 (column, "keys") == 0)
        return g_strdup_printf (
            "%u", _tress_curve_document_n_keys (self->document, (guint)self->curve_index));
      c = tress_curve_document_get_curve (self->document, (guint)self->curve_index);
      if (c == NULL)
        return g_strdup ("");
      n = tress_curve_get_n_keys (c);
      if (g_strcmp0 (column, "keys") == 0)
        return g_strdup_printf ("%u", n);
      if (g_strcmp0 (column, "interpolation") == 0)
        {
          guint used = 0;
          GString *s = g_string_new (NULL);

          /* The last key's interpolation starts no segment unless it is the only key. */
          for (guint i = 0; i < n; i++)
            if (i + 1 < n || n == 1)
              used |= TRESS_INTERP_MASK (tress_curve_get_key (c, i)->interp);
          for (guint k = TRESS_INTERP_STEP; k <= TRESS_INTERP_BAKED; k++)
            if (used & TRESS_INTERP_MASK (k))
              {
                if (s->len > 0)
                  g_string_append (s, ", ");
                g_string_append (s, tress_interp_to_label ((TressInterp)k));
              }
          return g_string_free (s, FALSE);
        }
      if (g_strcmp0 (column, "range") == 0)
        {
          g_autofree char *a = NULL, *b = NULL;

          if (n == 0)
            return g_strdup ("—");
          a = format_number (tress_curve_get_key (c, 0)->frame);
          b = format_number (tress_curve_get_key (c, n - 1)->frame);
          return g_strdup_printf ("%s – %s", a, b);
        }
      if (g_strcmp0 (column, "types") == 0)
        return g_strdup (c->type_label ? c->type_label : "");
      if (g_strcmp0 (column, "error") == 0)
        {
          double e
              = tress_curve_document_get_quant_error (self->document, (guint)self->curve_index);
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          if (e == 0)
            return g_strdup ("0");
          g_ascii_formatd (buf, sizeof buf, "%.3g", e);
          return g_strdup (buf);
        }
      return g_strdup ("");
    }
}
