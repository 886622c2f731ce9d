/* tress-curve-document.c: the document of a format with animation curves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-document.h"

#include <glib/gi18n.h>
#include <math.h>

#include "formats/tress-curve-commit.h"
#include "tress-curve-hierarchy.h"
#include "tress-curve-node-private.h"
#include "tress-document-private.h"
#include "tress-play-range.h"

/* ------------------------------------------------------------- document -- */

struct _TressCurveDocument
{
  TressDocument parent_instance;
  /* TressCurve, one per model curve, NULL until built; with the format's
   * peek_curve a curve is NULL until first asked for (decoded then). */
  GPtrArray *curves;
  GArray *quant_error; /* double, per curve (set when the curve is decoded) */
  /* Curves an edit reached through shared storage while a group of edits was
   * open or a step was replayed: read again once, when the group settles or
   * when first asked for (settle), not once per edited sibling. */
  GArray *stale;      /* guint8 per curve */
  GArray *stale_list; /* guint: the curves marked in stale */
  GListStore *roots;
  /* Per curve index, borrowed from the tree: its row (NULL until its group's
   * children are made), and the group holding it (NULL at the top). */
  GPtrArray *leaves;
  GPtrArray *leaf_groups;
  TressCurveSkeleton *skeleton; /* how the nodes the curves move nest, or NULL */
  TressPlayRanges *play_ranges;
  gboolean tree_built; /* the tree is built when first asked for (get_roots) */
  guint n_tree_builds;
};

enum
{
  SIGNAL_CURVE_CHANGED,
  SIGNAL_CURVES_RESET,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TressCurveDocument, tress_curve_document, TRESS_TYPE_DOCUMENT)

static const TressCurveOps *
get_ops (TressCurveDocument *self)
{
  const TressFormat *format = tress_document_get_format (TRESS_DOCUMENT (self));

  return format != NULL ? format->curves : NULL;
}

static void node_detach_all (GListModel *list);

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
  curve_label (self, get_ops (self), tress_document_get_model (TRESS_DOCUMENT (self)), index, out);
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

  curve_label (self, get_ops (self), tress_document_get_model (TRESS_DOCUMENT (self)), index, &c);
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

static void
build_tree (TressCurveDocument *self)
{
  const TressCurveOps *ops = get_ops (self);
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

  node_detach_all (G_LIST_MODEL (self->roots));
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

static void
build_curves (TressCurveDocument *self)
{
  const TressCurveOps *ops = get_ops (self);
  gpointer model = tress_document_get_model (TRESS_DOCUMENT (self));
  guint n = 0;

  g_clear_pointer (&self->curves, g_ptr_array_unref);
  g_clear_pointer (&self->quant_error, g_array_unref);
  self->curves = g_ptr_array_new_with_free_func ((GDestroyNotify)tress_curve_unref);
  self->quant_error = g_array_new (FALSE, TRUE, sizeof (double));
  if (ops != NULL && model != NULL)
    n = ops->n_curves (model);
  /* A new model: nothing of the old one is waiting to be read again. */
  g_array_set_size (self->stale, 0);
  g_array_set_size (self->stale, n);
  g_array_set_size (self->stale_list, 0);
  if (ops != NULL && ops->peek_curve != NULL)
    {
      /* Each curve decoded when first asked for (curve_at): opening a file
       * costs the tree, not every key of every curve. */
      g_ptr_array_set_size (self->curves, n);
      g_array_set_size (self->quant_error, n);
      n = 0;
    }
  for (guint i = 0; i < n; i++)
    {
      TressCurve *c = ops->get_curve (model, i);
      double e;

      if (c == NULL)
        c = tress_curve_new ();
      e = c->quant_error;
      g_ptr_array_add (self->curves, c);
      g_array_append_val (self->quant_error, e);
    }
  /* The tree is built when first asked for, so that a skeleton known by
   * then nests it the first time; once shown, it follows the new curves. */
  if (self->tree_built)
    build_tree (self);
}

static void
ensure_built (TressCurveDocument *self)
{
  if (self->curves == NULL)
    build_curves (self);
}

static void settle (TressCurveDocument *self, guint index);

static void
ensure_tree (TressCurveDocument *self)
{
  ensure_built (self);
  if (!self->tree_built)
    build_tree (self);
}

/* Curve @index (< the count), decoded on first use. */
static TressCurve *
curve_at (TressCurveDocument *self, guint index)
{
  TressCurve *c;

  settle (self, index);
  c = g_ptr_array_index (self->curves, index);

  if (c == NULL)
    {
      const TressCurveOps *ops = get_ops (self);

      c = ops != NULL ? ops->get_curve (tress_document_get_model (TRESS_DOCUMENT (self)), index)
                      : NULL;
      if (c == NULL)
        c = tress_curve_new ();
      g_ptr_array_index (self->curves, index) = c;
      g_array_index (self->quant_error, double, index) = c->quant_error;
    }
  return c;
}

guint
_tress_curve_document_n_keys (TressCurveDocument *self, guint index)
{
  const TressCurveOps *ops;
  TressCurvePeek peek;

  ensure_built (self);
  if (index >= self->curves->len)
    return 0;
  settle (self, index);
  if (g_ptr_array_index (self->curves, index) != NULL)
    return tress_curve_get_n_keys (g_ptr_array_index (self->curves, index));
  ops = get_ops (self);
  if (ops == NULL || ops->peek_curve == NULL)
    return 0;
  ops->peek_curve (tress_document_get_model (TRESS_DOCUMENT (self)), index, &peek);
  return peek.n_keys;
}

static void
tress_curve_document_model_changed (TressDocument *document)
{
  TressCurveDocument *self = TRESS_CURVE_DOCUMENT (document);

  build_curves (self);
  g_signal_emit (self, signals[SIGNAL_CURVES_RESET], 0);
}

/* TRUE when @a and @b hold the same keys, limits and length (field by field:
 * the structs have padding). */
static gboolean
same_curve_data (const TressCurve *a, const TressCurve *b)
{
  const TressCurveLimits *la = &a->limits, *lb = &b->limits;

  if (a->keys->len != b->keys->len || a->frame_count != b->frame_count || a->pre_wrap != b->pre_wrap
      || a->post_wrap != b->post_wrap || la->frame_step != lb->frame_step
      || la->frame_min != lb->frame_min || la->frame_max != lb->frame_max
      || la->value_min != lb->value_min || la->value_max != lb->value_max
      || la->value_kind != lb->value_kind || la->interp_mask != lb->interp_mask
      || la->uniform_interp != lb->uniform_interp || la->tied_tangents != lb->tied_tangents
      || la->fixed_key_count != lb->fixed_key_count || la->slopes_derived != lb->slopes_derived
      || g_strcmp0 (la->no_slopes, lb->no_slopes) != 0)
    return FALSE;
  for (guint i = 0; i < a->keys->len; i++)
    {
      const TressKey *ka = tress_curve_get_key (a, i), *kb = tress_curve_get_key (b, i);

      if (ka->frame != kb->frame || ka->value != kb->value || ka->in_gap != kb->in_gap
          || ka->in_slope != kb->in_slope || ka->out_slope != kb->out_slope
          || ka->interp != kb->interp || ka->tangent != kb->tangent || ka->flags != kb->flags
          || ka->native_interp != kb->native_interp)
        return FALSE;
    }
  return TRUE;
}

static void
replace_curve (TressCurveDocument *self, guint index, TressCurve *c)
{
  tress_curve_unref (g_ptr_array_index (self->curves, index));
  g_ptr_array_index (self->curves, index) = c;
  /* The groups above it show their curves' total key count: it changed too. */
  if (self->tree_built && index < self->leaves->len)
    {
      if (g_ptr_array_index (self->leaves, index) != NULL)
        _tress_curve_node_bump (g_ptr_array_index (self->leaves, index));
      for (TressCurveNode *n = g_ptr_array_index (self->leaf_groups, index); n != NULL;
           n = n->parent)
        _tress_curve_node_bump (n);
    }
  g_signal_emit (self, signals[SIGNAL_CURVE_CHANGED], 0, index);
}

/* Re-reads curve @i from the model; replaces and announces it if its data changed. */
static void
refresh_other (TressCurveDocument *self, const TressCurveOps *ops, gpointer model, guint i)
{
  TressCurve *other;

  /* Never decoded: nothing shown of it but its row, read again. */
  if (g_ptr_array_index (self->curves, i) == NULL)
    {
      if (self->tree_built && i < self->leaves->len && g_ptr_array_index (self->leaves, i) != NULL)
        _tress_curve_node_bump (g_ptr_array_index (self->leaves, i));
      return;
    }
  other = ops->get_curve (model, i);
  if (other == NULL)
    other = tress_curve_new ();
  if (same_curve_data (other, g_ptr_array_index (self->curves, i)))
    tress_curve_unref (other);
  else
    replace_curve (self, i, other);
}

/* Reads curve @i again now if an edit marked it. */
static void
settle (TressCurveDocument *self, guint index)
{
  const TressCurveOps *ops;

  if (index >= self->stale->len || !g_array_index (self->stale, guint8, index))
    return;
  g_array_index (self->stale, guint8, index) = 0;
  ops = get_ops (self);
  if (ops != NULL)
    refresh_other (self, ops, tress_document_get_model (TRESS_DOCUMENT (self)), index);
}

/* Reads every marked curve again, once. */
static void
settle_all (TressCurveDocument *self)
{
  g_autoptr (GArray) list = NULL;

  if (self->stale_list == NULL || self->stale_list->len == 0)
    return;
  list = g_array_copy (self->stale_list);
  g_array_set_size (self->stale_list, 0);
  for (guint j = 0; j < list->len; j++)
    settle (self, g_array_index (list, guint, j));
}

/* TRUE while edits come in a batch: a group open, or a step replayed. */
static gboolean
batching (TressCurveDocument *self)
{
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (self));

  return tress_history_in_group (history) || tress_history_is_replaying (history);
}

/* Curve @i is to be read again: now, or once the batch settles. */
static void
reached (TressCurveDocument *self, const TressCurveOps *ops, gpointer model, guint i,
         gboolean later)
{
  if (!later)
    {
      refresh_other (self, ops, model, i);
      return;
    }
  if (g_array_index (self->stale, guint8, i))
    return;
  g_array_index (self->stale, guint8, i) = 1;
  g_array_append_val (self->stale_list, i);
}

/* Re-reads curve @index from the model after it changed, and every other curve
 * the change reached: formats share storage between curves (a NIFF record holds
 * every component of a channel; a BFRES animation's length bounds all of its
 * curves), so an edit of one curve can change its siblings. The format names
 * them (linked_curves); without that list every curve is compared. Only
 * curves whose data really changed are replaced and announced. In a batch
 * (an edit of every curve of a big file, its undo) the siblings are read
 * once when it settles, not once per edited curve: O(curves), not
 * O(curves × siblings). */
static void
refresh_curve (TressCurveDocument *self, guint index, double quant_error)
{
  const TressCurveOps *ops = get_ops (self);
  gpointer model = tress_document_get_model (TRESS_DOCUMENT (self));
  gboolean later = batching (self);
  TressCurve *c;

  ensure_built (self);
  if (ops == NULL || index >= self->curves->len)
    return;
  g_array_index (self->stale, guint8, index) = 0; /* read now */
  c = ops->get_curve (model, index);
  if (c == NULL)
    c = tress_curve_new ();
  g_array_index (self->quant_error, double, index) = quant_error;
  replace_curve (self, index, c);

  if (ops->linked_curves != NULL)
    {
      g_autoptr (GArray) linked = g_array_new (FALSE, FALSE, sizeof (guint));

      ops->linked_curves (model, index, linked);
      for (guint j = 0; j < linked->len; j++)
        {
          guint i = g_array_index (linked, guint, j);

          if (i != index && i < self->curves->len)
            reached (self, ops, model, i, later);
        }
      return;
    }
  for (guint i = 0; i < self->curves->len; i++)
    if (i != index)
      reached (self, ops, model, i, later);
}

static void
on_history_changed (TressHistory *history, TressCurveDocument *self)
{
  if (!tress_history_in_group (history) && !tress_history_is_replaying (history))
    settle_all (self);
}

/* ----------------------------------------------------- set curve command -- */

typedef struct
{
  TressCommand parent;
  TressCurveDocument *document; /* the history's owner; outlives its commands */
  guint index;
  GBytes *before;
  GBytes *after;
  double error_before;
  double error_after;
} SetCurveCommand;

static void
set_curve_apply (TressCommand *cmd, gpointer target, gboolean undo)
{
  SetCurveCommand *self = (SetCurveCommand *)cmd;
  const TressCurveOps *ops = get_ops (self->document);
  gpointer model = tress_document_get_model (TRESS_DOCUMENT (self->document));

  if (ops == NULL)
    return;
  ops->restore_state (model, self->index, undo ? self->before : self->after);
  refresh_curve (self->document, self->index, undo ? self->error_before : self->error_after);
}

static gboolean
set_curve_merge (TressCommand *cmd, const TressCommand *next)
{
  SetCurveCommand *self = (SetCurveCommand *)cmd;
  const SetCurveCommand *other = (const SetCurveCommand *)next;

  if (other->index != self->index || other->document != self->document)
    return FALSE;
  g_bytes_unref (self->after);
  self->after = g_bytes_ref (other->after);
  self->error_after = other->error_after;
  return TRUE;
}

static gsize
set_curve_size (const TressCommand *cmd)
{
  const SetCurveCommand *self = (const SetCurveCommand *)cmd;

  return sizeof *self + g_bytes_get_size (self->before) + g_bytes_get_size (self->after);
}

static void
set_curve_finalize (TressCommand *cmd)
{
  SetCurveCommand *self = (SetCurveCommand *)cmd;

  g_clear_pointer (&self->before, g_bytes_unref);
  g_clear_pointer (&self->after, g_bytes_unref);
}

static const TressCommandClass set_curve_class = {
  .type_name = "TressSetCurve",
  .apply = set_curve_apply,
  .merge = set_curve_merge,
  .size = set_curve_size,
  .finalize = set_curve_finalize,
};

/* Runs @edit between two save_state calls and records the step. */
static gboolean
record_edit (TressCurveDocument *self, guint index, const char *label, const char *merge_key,
             TressCurveModelEdit edit, gpointer data, GError **error)
{
  const TressCurveOps *ops;
  gpointer model;
  g_autoptr (GBytes) before = NULL;
  SetCurveCommand *cmd;
  double error_value = 0;

  ensure_built (self);
  ops = get_ops (self);
  model = tress_document_get_model (TRESS_DOCUMENT (self));
  if (ops == NULL || index >= self->curves->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, _ ("There is no curve %u"), index);
      return FALSE;
    }
  curve_at (self, index); /* its quantization error before the edit */
  before = ops->save_state (model, index);
  if (!edit (model, index, data, &error_value, error))
    {
      /* A refusal must leave nothing behind, whatever the format got to. */
      ops->restore_state (model, index, before);
      return FALSE;
    }

  cmd = tress_command_alloc (sizeof (SetCurveCommand), &set_curve_class, label, merge_key);
  cmd->document = self;
  cmd->index = index;
  cmd->before = g_steal_pointer (&before);
  cmd->after = ops->save_state (model, index);
  cmd->error_before = g_array_index (self->quant_error, double, index);
  cmd->error_after = isfinite (error_value) ? error_value : 0;
  /* perform applies the after state (what the model holds already) and records it. */
  tress_history_perform (tress_document_get_history (TRESS_DOCUMENT (self)), (TressCommand *)cmd);
  return TRUE;
}

/* ------------------------------------------------- replace state command -- */

/* The whole model's state before and after a change that adds and removes
 * curves: every application reads the curves again. */
typedef struct
{
  TressCommand parent;
  TressCurveDocument *document;
  TressCurveModelRestore restore;
  GBytes *before;
  GBytes *after;
} ReplaceStateCommand;

static void
replace_state_apply (TressCommand *cmd, gpointer target, gboolean undo)
{
  ReplaceStateCommand *self = (ReplaceStateCommand *)cmd;
  g_autoptr (GError) error = NULL;

  /* Both states were in the model once: they parse again. */
  if (!self->restore (target, undo ? self->before : self->after, &error))
    g_warning ("%s: %s", cmd->label, error->message);
  tress_curve_document_model_changed (TRESS_DOCUMENT (self->document));
}

static gsize
replace_state_size (const TressCommand *cmd)
{
  const ReplaceStateCommand *self = (const ReplaceStateCommand *)cmd;

  return sizeof *self + g_bytes_get_size (self->before) + g_bytes_get_size (self->after);
}

static void
replace_state_finalize (TressCommand *cmd)
{
  ReplaceStateCommand *self = (ReplaceStateCommand *)cmd;

  g_clear_pointer (&self->before, g_bytes_unref);
  g_clear_pointer (&self->after, g_bytes_unref);
}

static const TressCommandClass replace_state_class = {
  .type_name = "TressReplaceState",
  .apply = replace_state_apply,
  .size = replace_state_size,
  .finalize = replace_state_finalize,
};

gboolean
tress_curve_document_replace_state (TressCurveDocument *self, const char *label,
                                    TressCurveModelRestore restore, GBytes *before, GBytes *after,
                                    GError **error)
{
  TressDocument *document = TRESS_DOCUMENT (self);
  ReplaceStateCommand *cmd;

  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  if (!restore (tress_document_get_model (document), after, error))
    return FALSE;
  cmd = tress_command_alloc (sizeof (ReplaceStateCommand), &replace_state_class, label, NULL);
  cmd->document = self;
  cmd->restore = restore;
  cmd->before = g_bytes_ref (before);
  cmd->after = g_bytes_ref (after);
  tress_document_invalidate_problems (document);
  tress_history_push (tress_document_get_history (document), (TressCommand *)cmd);
  tress_curve_document_model_changed (document);
  return TRUE;
}

typedef struct
{
  const TressCurveOps *ops;
  const TressCurve *curve;
} SetCurveData;

static gboolean
set_curve_edit (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  SetCurveData *d = data;

  return d->ops->set_curve (model, index, d->curve, max_error, error);
}

gboolean
tress_curve_document_set_curve_merging (TressCurveDocument *self, guint index,
                                        const TressCurve *curve, const char *label,
                                        const char *merge_key, GError **error)
{
  SetCurveData data;

  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  g_return_val_if_fail (curve != NULL, FALSE);

  data.ops = get_ops (self);
  data.curve = curve;
  if (data.ops == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "%s", _ ("This document has no curves"));
      return FALSE;
    }
  if (!tress_curve_check_limits (curve, error))
    return FALSE;
  return record_edit (self, index, label, merge_key, set_curve_edit, &data, error);
}

gboolean
tress_curve_document_preview_store (TressCurveDocument *self, guint index, const TressCurve *curve,
                                    TressStoreCost *cost)
{
  const TressCurveOps *ops;

  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  g_return_val_if_fail (curve != NULL && cost != NULL, FALSE);
  memset (cost, 0, sizeof *cost);
  ops = get_ops (self);
  if (ops == NULL || ops->preview_store == NULL
      || index >= tress_curve_document_get_n_curves (self))
    return FALSE;
  return ops->preview_store (tress_document_get_model (TRESS_DOCUMENT (self)), index, curve, cost,
                             NULL);
}

typedef struct
{
  const TressCurveOps *ops;
  const TressCurve *curve;
  TressCommitConsent consent;
} CommitData;

static gboolean
commit_edit (gpointer model, guint index, gpointer data, double *max_error, GError **error)
{
  CommitData *d = data;

  return tress_curve_commit (d->ops, model, index, d->curve, d->consent, max_error, error);
}

gboolean
tress_curve_document_commit_curve (TressCurveDocument *self, guint index, const TressCurve *curve,
                                   guint consent, const char *label, GError **error)
{
  CommitData data;

  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  g_return_val_if_fail (curve != NULL, FALSE);
  data.ops = get_ops (self);
  data.curve = curve;
  data.consent = consent;
  if (data.ops == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "%s", _ ("This document has no curves"));
      return FALSE;
    }
  return record_edit (self, index, label, NULL, commit_edit, &data, error);
}

gboolean
tress_curve_document_apply_model_edit (TressCurveDocument *self, guint index, const char *label,
                                       TressCurveModelEdit edit, gpointer data, GError **error)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);
  return record_edit (self, index, label, NULL, edit, data, error);
}

gboolean
tress_curve_document_set_curve (TressCurveDocument *self, guint index, const TressCurve *curve,
                                const char *label, GError **error)
{
  return tress_curve_document_set_curve_merging (self, index, curve, label, NULL, error);
}

void
tress_curve_document_begin_edit (TressCurveDocument *self, const char *label)
{
  tress_history_begin_group (tress_document_get_history (TRESS_DOCUMENT (self)), label);
}

void
tress_curve_document_end_edit (TressCurveDocument *self)
{
  TressHistory *history = tress_document_get_history (TRESS_DOCUMENT (self));

  tress_history_end_group (history);
  /* Also when the group held nothing (no "changed" then). */
  if (!tress_history_in_group (history))
    settle_all (self);
}

void
tress_curve_document_cancel_edit (TressCurveDocument *self)
{
  tress_history_cancel_group (tress_document_get_history (TRESS_DOCUMENT (self)));
}

GListModel *
tress_curve_document_get_roots (TressCurveDocument *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), NULL);
  ensure_tree (self);
  return G_LIST_MODEL (self->roots);
}

guint
tress_curve_document_get_n_tree_builds (TressCurveDocument *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), 0);
  return self->n_tree_builds;
}

guint
tress_curve_document_get_n_curves (TressCurveDocument *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), 0);
  ensure_built (self);
  return self->curves->len;
}

const TressCurve *
tress_curve_document_get_curve (TressCurveDocument *self, guint index)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), NULL);
  ensure_built (self);
  if (index >= self->curves->len)
    return NULL;
  return curve_at (self, index);
}

double
tress_curve_document_get_quant_error (TressCurveDocument *self, guint index)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), 0);
  ensure_built (self);
  if (index >= self->quant_error->len)
    return 0;
  curve_at (self, index);
  return g_array_index (self->quant_error, double, index);
}

gboolean
tress_curve_document_preview_error (TressCurveDocument *self, guint index, const TressCurve *curve,
                                    double *max_error, GError **error)
{
  TressDocument *doc = TRESS_DOCUMENT (self);
  const TressCurveOps *ops;

  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  g_return_val_if_fail (curve != NULL, FALSE);
  ops = tress_document_get_format (doc)->curves;
  if (ops == NULL || ops->preview_error == NULL)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_UNSUPPORTED, "%s",
                   _ ("This format cannot tell its quantization error in advance"));
      return FALSE;
    }
  if (index >= tress_curve_document_get_n_curves (self))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED, _ ("There is no curve %u"), index);
      return FALSE;
    }
  return ops->preview_error (tress_document_get_model (doc), index, curve, max_error, error);
}

gboolean
tress_curve_document_set_skeleton (TressCurveDocument *self, TressCurveSkeleton *skeleton)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), FALSE);
  if (tress_curve_skeleton_equal (self->skeleton, skeleton))
    {
      tress_curve_skeleton_free (skeleton);
      return FALSE;
    }
  g_clear_pointer (&self->skeleton, tress_curve_skeleton_free);
  self->skeleton = skeleton;
  if (self->tree_built)
    build_tree (self);
  return TRUE;
}

const TressCurveSkeleton *
tress_curve_document_get_skeleton (TressCurveDocument *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), NULL);
  return self->skeleton;
}

TressPlayRanges *
tress_curve_document_get_play_ranges (TressCurveDocument *self)
{
  g_return_val_if_fail (TRESS_IS_CURVE_DOCUMENT (self), NULL);
  return self->play_ranges;
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

static void
node_detach_all (GListModel *list)
{
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (TressCurveNode) node = g_list_model_get_item (list, i);

      node_detach (node);
    }
}

static void
tress_curve_document_finalize (GObject *object)
{
  TressCurveDocument *self = TRESS_CURVE_DOCUMENT (object);

  g_clear_pointer (&self->curves, g_ptr_array_unref);
  g_clear_pointer (&self->quant_error, g_array_unref);
  g_clear_pointer (&self->stale, g_array_unref);
  g_clear_pointer (&self->stale_list, g_array_unref);
  g_clear_pointer (&self->leaves, g_ptr_array_unref);
  g_clear_pointer (&self->leaf_groups, g_ptr_array_unref);
  g_clear_pointer (&self->skeleton, tress_curve_skeleton_free);
  g_clear_pointer (&self->play_ranges, tress_play_ranges_free);
  /* Nodes may outlive the document in a view's model: cut their back pointers. */
  if (self->roots != NULL)
    {
      node_detach_all (G_LIST_MODEL (self->roots));
      g_clear_object (&self->roots);
    }
  G_OBJECT_CLASS (tress_curve_document_parent_class)->finalize (object);
}

static void
tress_curve_document_class_init (TressCurveDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TressDocumentClass *document_class = TRESS_DOCUMENT_CLASS (klass);

  object_class->finalize = tress_curve_document_finalize;
  document_class->model_changed = tress_curve_document_model_changed;

  signals[SIGNAL_CURVE_CHANGED]
      = g_signal_new ("curve-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_CURVES_RESET]
      = g_signal_new ("curves-reset", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 0);
}

static void
tress_curve_document_init (TressCurveDocument *self)
{
  self->roots = g_list_store_new (TRESS_TYPE_CURVE_NODE);
  self->leaves = g_ptr_array_new ();
  self->leaf_groups = g_ptr_array_new ();
  self->play_ranges = tress_play_ranges_new ();
  self->stale = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->stale_list = g_array_new (FALSE, FALSE, sizeof (guint));
  /* After the document's own handler (connected in its init): views told of
   * the change read what they ask for through settle. */
  g_signal_connect_object (tress_document_get_history (TRESS_DOCUMENT (self)), "changed",
                           G_CALLBACK (on_history_changed), self, 0);
}

void
tress_curve_document_register_format (const char *format_id)
{
  tress_document_register_type (format_id, TRESS_TYPE_CURVE_DOCUMENT);
}

void
tress_curve_document_register_types (void)
{
  tress_curve_document_register_format ("bfres");
  tress_curve_document_register_format ("niff");
}
