/* tress-curve-hierarchy.c: the bones (or objects) the curves move, nested
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-hierarchy.h"

#include <string.h>

struct _TressCurveSkeleton
{
  guint n_nodes;
  char **names; /* n_nodes + 1 (NULL-terminated) */
  int *parents;
  guint n_curves;
  int *curve_node;
};

TressCurveSkeleton *
tress_curve_skeleton_new (guint n_nodes, const char *const *names, const int *parents,
                          guint n_curves, const int *curve_node)
{
  TressCurveSkeleton *self = g_new0 (TressCurveSkeleton, 1);
  g_autofree guint *mark = g_new0 (guint, MAX (n_nodes, 1));

  self->n_nodes = n_nodes;
  self->names = g_new0 (char *, n_nodes + 1);
  self->parents = g_new (int, MAX (n_nodes, 1));
  for (guint i = 0; i < n_nodes; i++)
    {
      self->names[i] = g_strdup (names != NULL && names[i] != NULL ? names[i] : "");
      self->parents[i]
          = parents != NULL && parents[i] >= 0 && (guint)parents[i] < n_nodes ? parents[i] : -1;
    }
  /* A loop of parents is cut where the walk up from a node comes back to a
   * node of the same walk: every walk ends at a root afterwards. */
  for (guint i = 0; i < n_nodes; i++)
    {
      guint walk = i + 1;
      int n = (int)i;

      if (mark[i] != 0)
        continue;
      while (n >= 0 && mark[n] == 0)
        {
          mark[n] = walk;
          if (self->parents[n] >= 0 && mark[self->parents[n]] == walk)
            self->parents[n] = -1;
          n = self->parents[n];
        }
    }
  self->n_curves = n_curves;
  self->curve_node = g_new (int, MAX (n_curves, 1));
  for (guint i = 0; i < n_curves; i++)
    self->curve_node[i] = curve_node != NULL && curve_node[i] >= 0 && (guint)curve_node[i] < n_nodes
                              ? curve_node[i]
                              : -1;
  return self;
}

void
tress_curve_skeleton_free (TressCurveSkeleton *self)
{
  if (self == NULL)
    return;
  g_strfreev (self->names);
  g_free (self->parents);
  g_free (self->curve_node);
  g_free (self);
}

gboolean
tress_curve_skeleton_equal (const TressCurveSkeleton *a, const TressCurveSkeleton *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  if (a->n_nodes != b->n_nodes || a->n_curves != b->n_curves
      || memcmp (a->parents, b->parents, a->n_nodes * sizeof (int)) != 0
      || memcmp (a->curve_node, b->curve_node, a->n_curves * sizeof (int)) != 0)
    return FALSE;
  for (guint i = 0; i < a->n_nodes; i++)
    if (strcmp (a->names[i], b->names[i]) != 0)
      return FALSE;
  return TRUE;
}

guint
tress_curve_skeleton_get_n_nodes (const TressCurveSkeleton *self)
{
  return self != NULL ? self->n_nodes : 0;
}

guint
tress_curve_skeleton_get_n_curves (const TressCurveSkeleton *self)
{
  return self != NULL ? self->n_curves : 0;
}

const char *
tress_curve_skeleton_get_name (const TressCurveSkeleton *self, guint node)
{
  g_return_val_if_fail (self != NULL && node < self->n_nodes, NULL);
  return self->names[node];
}

int
tress_curve_skeleton_get_parent (const TressCurveSkeleton *self, guint node)
{
  g_return_val_if_fail (self != NULL && node < self->n_nodes, -1);
  return self->parents[node];
}

int
tress_curve_skeleton_get_curve_node (const TressCurveSkeleton *self, guint curve)
{
  if (self == NULL || curve >= self->n_curves)
    return -1;
  return self->curve_node[curve];
}

int
tress_curve_skeleton_node_level (const TressCurveSkeleton *self, guint curve,
                                 const char *const *parts, guint n_parts, const char *owner)
{
  int node = tress_curve_skeleton_get_curve_node (self, curve);
  const char *name;

  if (node < 0 || parts == NULL)
    return -1;
  name = self->names[node];
  if (name[0] == '\0')
    return -1;
  for (guint p = 0; p + 1 < n_parts; p++)
    if (g_strcmp0 (parts[p], name) == 0)
      return (int)p;
  if (n_parts >= 2 && owner != NULL && strcmp (owner, name) == 0)
    return 0;
  return -1;
}

void
tress_curve_skeleton_ancestors (const TressCurveSkeleton *self, guint node, GArray *out)
{
  guint start = out->len;

  g_return_if_fail (self != NULL && node < self->n_nodes);
  for (int p = self->parents[node]; p >= 0; p = self->parents[p])
    g_array_append_val (out, p);
  /* Root first. */
  for (guint a = start, b = out->len; a + 1 < b; a++, b--)
    {
      int t = g_array_index (out, int, a);

      g_array_index (out, int, a) = g_array_index (out, int, b - 1);
      g_array_index (out, int, b - 1) = t;
    }
}
