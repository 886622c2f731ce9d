/* tress-curve-document-tree.c: the curves tree of a curve document: groups by
 * path, nested by the model's skeleton when it is known, split a level at a
 * time otherwise; the rows of a group made when first asked for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-document-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tress-curve-hierarchy.h"
#include "tress-curve-node-private.h"

/* The path, kind and owner of curve @index: the decoded curve's, else the
 * format's peek (the tree is built without decoding any curve). */
static void
curve_label (TressCurveDocument *self, const TressCurveOps *ops, gpointer model, guint index,
             TressCurvePeek *out)
{
  const TressCurve *c = g_ptr_array_index (self->curves, index);

  if (c != NULL)
    *out = (TressCurvePeek){ c->path, c->kind, c->owner, tress_curve_get_n_keys (c) };
  else
    ops->peek_curve (model, index, out);
}

/* Appends @node (a group or a curve's row, held by the caller) below
 * @parent, or to @roots at the top. */
static void
add_group (GListStore *roots, TressCurveNode *parent, TressCurveNode *node)
{
  if (parent != NULL)
    _tress_curve_node_add_group (parent, node);
  else
    g_list_store_append (roots, node);
}

static TressCurveNode *
ensure_group (TressCurveDocument *self, GHashTable *groups, GListStore *roots,
              TressCurveNode *parent, const char *key, const char *name)
{
  TressCurveNode *node = g_hash_table_lookup (groups, key);

  if (node == NULL)
    {
      node = _tress_curve_node_new (self, name, -1);
      add_group (roots, parent, node);
      g_hash_table_insert (groups, g_strdup (key), node);
      g_object_unref (node); /* its parent holds it */
    }
  return node;
}

/* The group standing for skeleton node @node below @base (the animation's
 * group, whose key is @base_key; NULL: the top) when nothing of its own names
 * it yet: an ancestor with no curves here, named as the skeleton names it. */
static TressCurveNode *
ensure_ancestor (TressCurveDocument *self, GHashTable *groups, GListStore *roots,
                 TressCurveNode *base, const char *base_key, guint node)
{
  g_autofree char *key = g_strdup_printf ("%s\x1e%u", base_key, node);
  TressCurveNode *g = g_hash_table_lookup (groups, key);
  int parent = tress_curve_skeleton_get_parent (self->skeleton, node);
  TressCurveNode *under = base;

  if (g != NULL)
    return g;
  if (parent >= 0)
    under = ensure_ancestor (self, groups, roots, base, base_key, (guint)parent);
  g = ensure_group (self, groups, roots, under, key,
                    tress_curve_skeleton_get_name (self->skeleton, node));
  g->nested = TRUE;
  g->placeholder = TRUE;
  return g;
}

/* The group of node @node's curves at path level @part (labelled @label),
 * below the groups of its ancestors under @base. The first group of a node
 * takes over the place an ancestor's placeholder kept for it. */
static TressCurveNode *
ensure_nested (TressCurveDocument *self, GHashTable *groups, GListStore *roots,
               TressCurveNode *base, const char *base_key, guint node, const char *part,
               const char *label)
{
  g_autofree char *node_key = g_strdup_printf ("%s\x1e%u", base_key, node);
  g_autofree char *key = g_strdup_printf ("%s\x1e%s", node_key, part);
  TressCurveNode *g = g_hash_table_lookup (groups, key);
  int parent = tress_curve_skeleton_get_parent (self->skeleton, node);
  TressCurveNode *under = base;

  if (g != NULL)
    return g;
  g = g_hash_table_lookup (groups, node_key);
  if (g != NULL && g->placeholder)
    {
      g_free (g->name);
      g->name = g_strdup (label);
      g->placeholder = FALSE;
      g_hash_table_insert (groups, g_strdup (key), g);
      return g;
    }
  if (parent >= 0)
    under = ensure_ancestor (self, groups, roots, base, base_key, (guint)parent);
  g = ensure_group (self, groups, roots, under, key, label);
  g->nested = TRUE;
  if (!g_hash_table_contains (groups, node_key))
    g_hash_table_insert (groups, g_strdup (node_key), g);
  return g;
}

void
_tress_curve_document_peek (TressCurveDocument *self, guint index, TressCurvePeek *out)
{
  curve_label (self, _tress_curve_document_ops (self),
               tress_document_get_model (TRESS_DOCUMENT (self)), index, out);
}

void
_tress_curve_document_set_leaf_group (TressCurveDocument *self, guint index, TressCurveNode *group)
{
  if (index < self->leaf_groups->len)
    g_ptr_array_index (self->leaf_groups, index) = group;
}

/* The tree without a skeleton: one group for all the curves, split at once
 * into the top rows, each of those split in turn when first asked for (its
 * rows shown, its curves listed). */
static void
build_tree_lazily (TressCurveDocument *self, GListStore *roots)
{
  g_autoptr (TressCurveNode) top = _tress_curve_node_new (self, "", -1);

  top->pending = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->curves->len);
  for (guint i = 0; i < self->curves->len; i++)
    g_array_append_val (top->pending, i);
  _tress_curve_node_split (top);
  for (guint k = 0; top->entries != NULL && k < top->entries->len; k++)
    {
      TressCurveNodeEntry *e = &g_array_index (top->entries, TressCurveNodeEntry, k);
      TressCurveNode *node = e->group;

      if (node == NULL)
        {
          /* A curve at the top: its row made at once. */
          g_autofree char *name
              = g_strdup (_tress_curve_document_leaf_name (self, (guint)e->curve));

          node = _tress_curve_node_new (self, name, e->curve);
        }
      else
        e->group = NULL;
      node->parent = NULL;
      if (node->curve_index >= 0)
        {
          g_ptr_array_index (self->leaves, node->curve_index) = node;
          g_ptr_array_index (self->leaf_groups, node->curve_index) = NULL;
        }
      g_list_store_append (roots, node);
      g_object_unref (node);
    }
}

const char *
_tress_curve_document_leaf_name (TressCurveDocument *self, guint index)
{
  TressCurvePeek c;
  const char *slash;

  curve_label (self, _tress_curve_document_ops (self),
               tress_document_get_model (TRESS_DOCUMENT (self)), index, &c);
  slash = c.path != NULL ? strrchr (c.path, '/') : NULL;
  /* Only curves in a group are named later, and their paths have a '/'. */
  return slash != NULL ? slash + 1 : (c.path != NULL ? c.path : "");
}

void
_tress_curve_document_leaf_made (TressCurveDocument *self, TressCurveNode *leaf)
{
  guint i = (guint)leaf->curve_index;

  if (i < self->leaves->len && g_ptr_array_index (self->leaf_groups, i) == leaf->parent)
    g_ptr_array_index (self->leaves, i) = leaf;
}

/* The group of curve @i, and whether the curve before it (@prev, its path
 * @prev_path, kind @prev_kind and owner @prev_owner) sits in the same one:
 * consecutive curves of one bone share their group, found once. */
static gboolean
same_group_as_previous (TressCurveDocument *self, guint i, const TressCurvePeek *c,
                        const TressCurvePeek *prev)
{
  const char *slash = c->path != NULL ? strrchr (c->path, '/') : NULL;
  gsize n;

  if (i == 0 || slash == NULL || prev->path == NULL)
    return FALSE;
  n = (gsize)(slash - c->path) + 1;
  if (strncmp (c->path, prev->path, n) != 0 || strchr (prev->path + n, '/') != NULL
      || g_strcmp0 (c->kind, prev->kind) != 0 || g_strcmp0 (c->owner, prev->owner) != 0)
    return FALSE;
  return self->skeleton == NULL
         || tress_curve_skeleton_get_n_curves (self->skeleton) != self->curves->len
         || tress_curve_skeleton_get_curve_node (self->skeleton, i)
                == tress_curve_skeleton_get_curve_node (self->skeleton, i - 1);
}

void
_tress_curve_document_build_tree (TressCurveDocument *self)
{
  const TressCurveOps *ops = _tress_curve_document_ops (self);
  gpointer model = tress_document_get_model (TRESS_DOCUMENT (self));
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GListStore) roots = g_list_store_new (TRESS_TYPE_CURVE_NODE);
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  gint64 start = g_get_monotonic_time ();
  g_autoptr (GString) key = g_string_new (NULL);
  TressCurvePeek prev = { 0 };
  TressCurveNode *prev_group = NULL;
  /* Without a skeleton to nest by, the tree is split a level at a time. */
  gboolean lazy = self->skeleton == NULL
                  || tress_curve_skeleton_get_n_curves (self->skeleton) != self->curves->len;

  _tress_curve_document_detach_all (G_LIST_MODEL (self->roots));
  g_ptr_array_set_size (self->leaves, 0);
  g_ptr_array_set_size (self->leaves, self->curves->len);
  g_ptr_array_set_size (self->leaf_groups, 0);
  g_ptr_array_set_size (self->leaf_groups, self->curves->len);
  if (lazy)
    build_tree_lazily (self, roots);
  for (guint i = 0; !lazy && i < self->curves->len; i++)
    {
      TressCurvePeek c;
      g_auto (GStrv) split = NULL;
      g_autofree char *copy = NULL;
      char *local[64], **parts = local;
      TressCurveNode *parent = NULL;
      guint n_parts;
      int level = -1;

      curve_label (self, ops, model, i, &c);
      if (prev_group != NULL && same_group_as_previous (self, i, &c, &prev))
        {
          _tress_curve_node_add_curve (prev_group, strrchr (c.path, '/') + 1, (int)i);
          g_ptr_array_index (self->leaf_groups, i) = prev_group;
          prev = c;
          continue;
        }
      prev = c;
      if (c.path != NULL && c.path[0] != '\0')
        {
          /* Split at '/' in a copy (at most 63 levels here, else by g_strsplit). */
          copy = g_strdup (c.path);
          n_parts = 0;
          for (char *p = copy; p != NULL && n_parts < G_N_ELEMENTS (local) - 1;)
            {
              local[n_parts++] = p;
              p = strchr (p, '/');
              if (p != NULL)
                *p++ = '\0';
              else
                break;
            }
          local[n_parts] = NULL;
          if (strchr (local[n_parts - 1], '/') != NULL || n_parts == G_N_ELEMENTS (local) - 1)
            {
              split = g_strsplit (c.path, "/", -1);
              parts = split;
              n_parts = g_strv_length (parts);
            }
        }
      else
        {
          split = g_new0 (char *, 2);
          split[0] = g_strdup_printf (_ ("Curve %u"), i);
          parts = split;
          n_parts = 1;
        }
      g_string_truncate (key, 0);
      if (self->skeleton != NULL
          && tress_curve_skeleton_get_n_curves (self->skeleton) == self->curves->len)
        level = tress_curve_skeleton_node_level (self->skeleton, i, (const char *const *)parts,
                                                 n_parts, c.owner);
      /* The animation kind is the first level unless the path already starts with it. */
      if (c.kind != NULL && c.kind[0] != '\0' && g_strcmp0 (parts[0], c.kind) != 0)
        {
          g_string_append (key, c.kind);
          g_string_append_c (key, '\x1f');
          parent = ensure_group (self, groups, roots, parent, key->str, c.kind);
        }
      for (guint p = 0; p + 1 < n_parts; p++)
        {
          g_autofree char *label = NULL;

          /* The first group names the object that uses it (NIFF animation groups). */
          if (p == 0 && c.owner != NULL && c.owner[0] != '\0')
            label = g_strdup_printf ("%s (%s)", parts[p], c.owner);
          else
            label = g_strdup (parts[p]);
          if ((int)p == level)
            {
              /* The node's group, nested under its ancestors' groups (the
               * levels after it keep to the node's own group). */
              parent = ensure_nested (
                  self, groups, roots, parent, key->str,
                  (guint)tress_curve_skeleton_get_curve_node (self->skeleton, i), parts[p], label);
              g_string_append_printf (key, "\x1e%d\x1e%s\x1f",
                                      tress_curve_skeleton_get_curve_node (self->skeleton, i),
                                      parts[p]);
            }
          else
            {
              g_string_append (key, parts[p]);
              g_string_append_c (key, '\x1f');
              parent = ensure_group (self, groups, roots, parent, key->str, label);
            }
        }
      prev_group = parent;
      g_ptr_array_index (self->leaf_groups, i) = parent;
      if (parent != NULL && c.path != NULL && c.path[0] != '\0')
        _tress_curve_node_add_curve (parent, parts[n_parts - 1], (int)i);
      else
        {
          /* At the top, or named for want of a path: its row made at once. */
          TressCurveNode *leaf = _tress_curve_node_new (self, parts[n_parts - 1], (int)i);

          add_group (roots, parent, leaf);
          g_ptr_array_index (self->leaves, i) = leaf;
          g_object_unref (leaf);
        }
    }

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (roots)); i++)
    {
      TressCurveNode *root = g_list_model_get_item (G_LIST_MODEL (roots), i);

      g_ptr_array_add (items, root);
    }
  g_list_store_splice (self->roots, 0, g_list_model_get_n_items (G_LIST_MODEL (self->roots)),
                       items->pdata, items->len);
  for (guint i = 0; i < items->len; i++)
    g_object_unref (items->pdata[i]);
  self->tree_built = TRUE;
  self->n_tree_builds++;
  g_debug ("curve tree built: %u curves%s, %.1f ms", self->curves->len,
           self->skeleton != NULL ? " nested by their skeleton" : "",
           (g_get_monotonic_time () - start) / 1000.0);
}

static void node_detach (TressCurveNode *node);

static void
detach_child (TressCurveNode *group, int curve, gpointer data)
{
  (void)curve;
  (void)data;
  if (group != NULL)
    node_detach (group);
}

static void
node_detach (TressCurveNode *node)
{
  node->document = NULL;
  /* A group not split yet never will be: nothing below it was made. */
  if (node->curve_index < 0 && node->pending == NULL)
    _tress_curve_node_foreach_child (node, detach_child, NULL);
}

void
_tress_curve_document_detach_all (GListModel *list)
{
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (TressCurveNode) node = g_list_model_get_item (list, i);

      node_detach (node);
    }
}
