/* tress-curve-groups.c: the curves' paths as groups, and which groups are open
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-groups.h"

#include <string.h>

/* ---------------------------------------------------------------- paths -- */

const char *
tress_curve_path_part (const char *path, guint level, gsize *len)
{
  const char *p = path != NULL ? path : "";
  const char *end;

  for (guint l = 0; l < level; l++)
    {
      p = strchr (p, '/');
      if (p == NULL)
        return NULL;
      p++;
    }
  end = strchr (p, '/');
  *len = end != NULL ? (gsize)(end - p) : strlen (p);
  return p;
}

gboolean
tress_curve_path_is_leaf (const char *path, guint level)
{
  gsize len, next_len;
  const char *next;

  if (tress_curve_path_part (path, level, &len) == NULL)
    return TRUE;
  next = tress_curve_path_part (path, level + 1, &next_len);
  if (next == NULL)
    return TRUE;
  return tress_curve_path_part (path, level + 2, &len) == NULL && next_len <= 2;
}

gboolean
tress_curve_path_same_part (const char *a, const char *b, guint level)
{
  gsize la = 0, lb = 0;
  const char *pa = tress_curve_path_part (a, level, &la);
  const char *pb = tress_curve_path_part (b, level, &lb);

  return pa != NULL && pb != NULL && la == lb && memcmp (pa, pb, la) == 0;
}

char *
tress_curve_path_group_key (const char *path, guint level)
{
  gsize len = 0;
  const char *part = tress_curve_path_part (path, level, &len);

  if (part == NULL)
    return g_strdup (path != NULL ? path : "");
  return g_strndup (path, (gsize)(part - path) + len);
}

guint
tress_curve_paths_common_levels (const char *const *paths, guint n)
{
  guint base = 0;

  if (n == 0)
    return 0;
  for (;; base++)
    for (guint i = 0; i < n; i++)
      if (tress_curve_path_is_leaf (paths[i], base)
          || (i > 0 && !tress_curve_path_same_part (paths[0], paths[i], base)))
        return base;
}

/* --------------------------------------------------------------- groups -- */

struct _TressCurveGroups
{
  GObject parent_instance;
  GHashTable *open; /* key → GINT_TO_POINTER (1 open, 2 closed) */
};

G_DEFINE_FINAL_TYPE (TressCurveGroups, tress_curve_groups, G_TYPE_OBJECT)

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

TressCurveGroups *
tress_curve_groups_new (void)
{
  return g_object_new (TRESS_TYPE_CURVE_GROUPS, NULL);
}

gboolean
tress_curve_groups_get_open (TressCurveGroups *self, const char *key, gboolean fallback)
{
  int state;

  g_return_val_if_fail (TRESS_IS_CURVE_GROUPS (self), fallback);
  state = GPOINTER_TO_INT (g_hash_table_lookup (self->open, key != NULL ? key : ""));
  return state == 0 ? fallback : state == 1;
}

void
tress_curve_groups_set_open (TressCurveGroups *self, const char *key, gboolean open)
{
  int state = open ? 1 : 2;

  g_return_if_fail (TRESS_IS_CURVE_GROUPS (self));
  if (key == NULL || GPOINTER_TO_INT (g_hash_table_lookup (self->open, key)) == state)
    return;
  g_hash_table_insert (self->open, g_strdup (key), GINT_TO_POINTER (state));
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
tress_curve_groups_finalize (GObject *object)
{
  TressCurveGroups *self = TRESS_CURVE_GROUPS (object);

  g_hash_table_unref (self->open);
  G_OBJECT_CLASS (tress_curve_groups_parent_class)->finalize (object);
}

static void
tress_curve_groups_class_init (TressCurveGroupsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tress_curve_groups_finalize;
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tress_curve_groups_init (TressCurveGroups *self)
{
  self->open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}
